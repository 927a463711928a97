//! The Markdown report: sections made of paragraphs, tables, images and preformatted text,
//! a header describing the run (date, machine, commit, bench signature, command line), and
//! an atomic writer.
//!
//! ```
//! use engram_lab::report::{Align, Section, Table};
//!
//! let mut table = Table::new(&[("size", Align::Left), ("nodes", Align::Right)]);
//! table.row(["16 MiB", "1,234"]);
//! let mut section = Section::new("Table size");
//! section.para("What happens when the table is too small?");
//! section.table(table);
//! let md = section.to_markdown();
//! assert!(md.starts_with("## Table size\n"));
//! assert!(md.contains("| 16 MiB | 1,234 |"));
//! ```

use std::fmt::Write as _;
use std::fs;
use std::io::Write as _;
use std::path::Path;
use std::process::Command;
use std::time::{SystemTime, UNIX_EPOCH};

/// Horizontal alignment of a table column.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Align {
    /// Left-aligned (text).
    #[default]
    Left,
    /// Right-aligned (numbers).
    Right,
}

/// A table, rendered as a GitHub Markdown table.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Table {
    /// Column headings.
    pub headers: Vec<String>,
    /// Alignment of each column; missing entries mean [`Align::Left`].
    pub align: Vec<Align>,
    /// Data rows. A short row is padded with empty cells; a long row gets extra columns with
    /// empty headings, so no cell is ever dropped.
    pub rows: Vec<Vec<String>>,
}

impl Table {
    /// A table with these column headings and alignments and no rows yet.
    pub fn new(columns: &[(&str, Align)]) -> Table {
        Table {
            headers: columns.iter().map(|(h, _)| h.to_string()).collect(),
            align: columns.iter().map(|&(_, a)| a).collect(),
            rows: Vec::new(),
        }
    }

    /// Appends a row.
    pub fn row<I, S>(&mut self, cells: I)
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.rows.push(cells.into_iter().map(Into::into).collect());
    }

    /// The table as GitHub Markdown, columns padded for readability in the raw text, `|` in
    /// cells escaped, newlines in cells replaced by spaces. Ends with a newline.
    pub fn to_markdown(&self) -> String {
        let ncols = self
            .rows
            .iter()
            .map(Vec::len)
            .chain([self.headers.len()])
            .max()
            .unwrap_or(0)
            .max(1);
        let cell = |row: &[String], i: usize| -> String {
            row.get(i).map(|c| escape_cell(c)).unwrap_or_default()
        };
        let header: Vec<String> = (0..ncols).map(|i| cell(&self.headers, i)).collect();
        let body: Vec<Vec<String>> = self
            .rows
            .iter()
            .map(|r| (0..ncols).map(|i| cell(r, i)).collect())
            .collect();
        let width = |i: usize| -> usize {
            body.iter()
                .map(|r| r[i].chars().count())
                .chain([header[i].chars().count(), 3])
                .max()
                .unwrap_or(3)
        };
        let widths: Vec<usize> = (0..ncols).map(width).collect();
        let align = |i: usize| self.align.get(i).copied().unwrap_or_default();

        let mut out = String::new();
        let line = |out: &mut String, cells: &[String]| {
            out.push('|');
            for (i, c) in cells.iter().enumerate() {
                let pad = widths[i] - c.chars().count();
                match align(i) {
                    Align::Left => write!(out, " {c}{} |", " ".repeat(pad)),
                    Align::Right => write!(out, " {}{c} |", " ".repeat(pad)),
                }
                .expect("writing to a String");
            }
            out.push('\n');
        };
        line(&mut out, &header);
        out.push('|');
        for (i, &w) in widths.iter().enumerate() {
            match align(i) {
                Align::Left => write!(out, " :{} |", "-".repeat(w - 1)),
                Align::Right => write!(out, " {}: |", "-".repeat(w - 1)),
            }
            .expect("writing to a String");
        }
        out.push('\n');
        for row in &body {
            line(&mut out, row);
        }
        out
    }
}

fn escape_cell(text: &str) -> String {
    text.replace('|', "\\|").replace(['\r', '\n'], " ")
}

/// One piece of a section's body.
#[derive(Clone, Debug, PartialEq)]
pub enum Block {
    /// A paragraph of Markdown text.
    Paragraph(String),
    /// A table.
    Table(Table),
    /// An image: `path` is the link as written into the Markdown (relative to the report,
    /// e.g. `img/tt-size.svg`), `alt` its alternative text.
    Image {
        /// Link target, relative to the report file.
        path: String,
        /// Alternative text.
        alt: String,
    },
    /// Preformatted text, rendered as a fenced code block.
    Pre(String),
}

impl Block {
    /// The block as Markdown, ending with a newline.
    pub fn to_markdown(&self) -> String {
        match self {
            Block::Paragraph(text) => format!("{}\n", text.trim_end()),
            Block::Table(table) => table.to_markdown(),
            Block::Image { path, alt } => {
                let alt = alt.replace(['[', ']'], "").replace('\n', " ");
                format!("![{alt}]({})\n", path.replace(' ', "%20"))
            }
            Block::Pre(text) => {
                // A fence longer than any run of backticks inside the text.
                let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
                let fence = "`".repeat(longest.max(2) + 1);
                format!("{fence}text\n{}\n{fence}\n", text.trim_end_matches('\n'))
            }
        }
    }
}

/// A section of the report: a `##` heading and its blocks.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Section {
    /// The heading text.
    pub title: String,
    /// The content, in order.
    pub body: Vec<Block>,
}

impl Section {
    /// An empty section with this heading.
    pub fn new(title: impl Into<String>) -> Section {
        Section {
            title: title.into(),
            body: Vec::new(),
        }
    }

    /// Appends a paragraph.
    pub fn para(&mut self, text: impl Into<String>) -> &mut Section {
        self.body.push(Block::Paragraph(text.into()));
        self
    }

    /// Appends a table.
    pub fn table(&mut self, table: Table) -> &mut Section {
        self.body.push(Block::Table(table));
        self
    }

    /// Appends an image; `path` is the relative link (see [`crate::context::Ctx::img_path`]).
    pub fn image(&mut self, path: impl Into<String>, alt: impl Into<String>) -> &mut Section {
        self.body.push(Block::Image {
            path: path.into(),
            alt: alt.into(),
        });
        self
    }

    /// Appends preformatted text.
    pub fn pre(&mut self, text: impl Into<String>) -> &mut Section {
        self.body.push(Block::Pre(text.into()));
        self
    }

    /// The section as Markdown: `## title`, then the blocks separated by blank lines.
    pub fn to_markdown(&self) -> String {
        let mut out = format!("## {}\n", self.title.trim());
        for block in &self.body {
            out.push('\n');
            out.push_str(&block.to_markdown());
        }
        out
    }
}

/// The facts about a run printed at the top of the report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// When the report was made, `YYYY-MM-DD HH:MM UTC`.
    pub date: String,
    /// CPU model name, or `unknown`.
    pub cpu: String,
    /// Logical CPUs available to the process.
    pub cores: usize,
    /// `git rev-parse --short=12 HEAD` of the workspace, `-dirty` appended when the work tree
    /// has changes, or `unknown`.
    pub commit: String,
    /// The engine's bench node count (the `Bench:` signature of the commit).
    pub bench: u64,
    /// Said after the bench value when it is not the standard signature (e.g. a quick run at
    /// a lower depth).
    pub bench_note: Option<String>,
    /// The command line that produced the report.
    pub command: String,
}

impl Header {
    /// Collects date, CPU, core count and commit now; `root` is the workspace root where git
    /// is run.
    pub fn collect(root: &Path, bench: u64, command: impl Into<String>) -> Header {
        Header {
            date: utc_now(),
            cpu: cpu_model(),
            cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
            commit: git_commit(root),
            bench,
            bench_note: None,
            command: command.into(),
        }
    }

    /// The header as a Markdown list.
    pub fn to_markdown(&self) -> String {
        let bench = match &self.bench_note {
            Some(note) => format!("{} ({note})", self.bench),
            None => self.bench.to_string(),
        };
        format!(
            "- Date: {}\n- CPU: {} ({} logical cores)\n- Commit: `{}`\n- Bench: {bench}\n- Command: `{}`\n",
            self.date, self.cpu, self.cores, self.commit, self.command
        )
    }
}

/// The whole report: a title, the run header, optional introductory blocks and the sections.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// The `#` heading.
    pub title: String,
    /// Facts about the run.
    pub header: Header,
    /// Blocks between the header and the first section.
    pub intro: Vec<Block>,
    /// The sections, in order.
    pub sections: Vec<Section>,
}

impl Report {
    /// A report with no intro and no sections yet.
    pub fn new(title: impl Into<String>, header: Header) -> Report {
        Report {
            title: title.into(),
            header,
            intro: Vec::new(),
            sections: Vec::new(),
        }
    }

    /// The report as Markdown: title, header, a list of contents (when there is more than one
    /// section), intro, sections.
    pub fn to_markdown(&self) -> String {
        let mut out = format!("# {}\n\n", self.title.trim());
        out.push_str(&self.header.to_markdown());
        for block in &self.intro {
            out.push('\n');
            out.push_str(&block.to_markdown());
        }
        if self.sections.len() > 1 {
            out.push_str("\nContents:\n\n");
            for s in &self.sections {
                let title = s.title.trim();
                writeln!(out, "- [{title}](#{})", anchor(title)).expect("writing to a String");
            }
        }
        for section in &self.sections {
            out.push('\n');
            out.push_str(&section.to_markdown());
        }
        out
    }

    /// Writes the report to `path` atomically ([`engram_tt::write_atomic`]: a temporary file
    /// flushed to disk and renamed over `path`, the folder flushed after).
    pub fn write(&self, path: &Path) -> Result<(), engram_tt::FileError> {
        engram_tt::write_atomic(path, |f| f.write_all(self.to_markdown().as_bytes()))
    }
}

/// The anchor GitHub gives a heading: lower case, spaces to `-`, other punctuation (except
/// `-` and `_`) dropped.
pub fn anchor(title: &str) -> String {
    title
        .trim()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .flat_map(char::to_lowercase)
        .collect()
}

/// `n` with commas between groups of three digits: `1234567` → `1,234,567`.
pub fn format_int(n: u64) -> String {
    group_digits(&n.to_string())
}

/// `x` with `decimals` digits after the point and the integer part grouped like
/// [`format_int`]: `format_f(-12345.678, 1)` → `-12,345.7`. NaN and infinities are written
/// as `NaN`, `inf`, `-inf`.
pub fn format_f(x: f64, decimals: usize) -> String {
    if !x.is_finite() {
        return format!("{x}");
    }
    let text = format!("{x:.decimals$}");
    let (sign, digits) = match text.strip_prefix('-') {
        Some(rest) => ("-", rest),
        None => ("", text.as_str()),
    };
    let (int, frac) = match digits.split_once('.') {
        Some((i, f)) => (i, Some(f)),
        None => (digits, None),
    };
    let mut out = format!("{sign}{}", group_digits(int));
    if let Some(f) = frac {
        out.push('.');
        out.push_str(f);
    }
    out
}

fn group_digits(digits: &str) -> String {
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The current time as `YYYY-MM-DD HH:MM UTC`.
pub fn utc_now() -> String {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    format_utc(secs)
}

/// Seconds since the Unix epoch as `YYYY-MM-DD HH:MM UTC` (proleptic Gregorian calendar).
pub fn format_utc(secs: u64) -> String {
    let mut days = secs / 86_400;
    let minute_of_day = (secs % 86_400) / 60;
    let leap = |y: u64| (y.is_multiple_of(4) && !y.is_multiple_of(100)) || y.is_multiple_of(400);
    let mut year = 1970;
    loop {
        let len = if leap(year) { 366 } else { 365 };
        if days < len {
            break;
        }
        days -= len;
        year += 1;
    }
    let february = if leap(year) { 29 } else { 28 };
    let lengths = [31, february, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
    let mut month = 1;
    for len in lengths {
        if days < len {
            break;
        }
        days -= len;
        month += 1;
    }
    format!(
        "{year:04}-{month:02}-{:02} {:02}:{:02} UTC",
        days + 1,
        minute_of_day / 60,
        minute_of_day % 60
    )
}

/// The CPU's model name from `/proc/cpuinfo`, or `unknown`.
pub fn cpu_model() -> String {
    fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|text| parse_cpu_model(&text))
        .unwrap_or_else(|| "unknown".into())
}

fn parse_cpu_model(cpuinfo: &str) -> Option<String> {
    cpuinfo.lines().find_map(|line| {
        let (key, value) = line.split_once(':')?;
        let value = value.split_whitespace().collect::<Vec<_>>().join(" ");
        (key.trim() == "model name" && !value.is_empty()).then_some(value)
    })
}

/// The workspace's commit, `git rev-parse --short=12 HEAD` run in `root`, with `-dirty`
/// appended when `git status --porcelain` lists anything; `unknown` if git fails.
pub fn git_commit(root: &Path) -> String {
    let git = |args: &[&str]| -> Option<String> {
        let out = Command::new("git")
            .arg("-C")
            .arg(root)
            .args(args)
            .output()
            .ok()?;
        out.status
            .success()
            .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
    };
    match (
        git(&["rev-parse", "--short=12", "HEAD"]),
        git(&["status", "--porcelain"]),
    ) {
        (Some(hash), Some(status)) if !hash.is_empty() => {
            if status.is_empty() {
                hash
            } else {
                format!("{hash}-dirty")
            }
        }
        _ => "unknown".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ints_are_grouped_in_threes() {
        assert_eq!(format_int(0), "0");
        assert_eq!(format_int(999), "999");
        assert_eq!(format_int(1000), "1,000");
        assert_eq!(format_int(1_234_567), "1,234,567");
        assert_eq!(format_int(u64::MAX), "18,446,744,073,709,551,615");
    }

    #[test]
    fn floats_are_rounded_and_grouped() {
        assert_eq!(format_f(0.0, 2), "0.00");
        assert_eq!(format_f(1.23456, 3), "1.235");
        assert_eq!(format_f(1234.5, 0), "1,234");
        assert_eq!(format_f(-12345.678, 1), "-12,345.7");
        assert_eq!(format_f(999999.96, 1), "1,000,000.0");
        assert_eq!(format_f(f64::NAN, 2), "NaN");
        assert_eq!(format_f(f64::NEG_INFINITY, 2), "-inf");
    }

    #[test]
    fn dates_are_utc_calendar_dates() {
        assert_eq!(format_utc(0), "1970-01-01 00:00 UTC");
        assert_eq!(format_utc(951_782_400), "2000-02-29 00:00 UTC");
        assert_eq!(format_utc(1_709_251_199), "2024-02-29 23:59 UTC");
        assert_eq!(format_utc(1_735_689_599), "2024-12-31 23:59 UTC");
        assert_eq!(format_utc(4_107_542_400), "2100-03-01 00:00 UTC");
        let now = utc_now();
        assert_eq!(now.len(), "YYYY-MM-DD HH:MM UTC".len());
        assert!(now.ends_with(" UTC"));
    }

    #[test]
    fn cpu_model_is_read_from_cpuinfo_text() {
        let text = "processor\t: 0\nvendor_id\t: X\nmodel name\t: Some  CPU @ 3.00GHz\n";
        assert_eq!(parse_cpu_model(text).as_deref(), Some("Some CPU @ 3.00GHz"));
        assert_eq!(parse_cpu_model("processor : 0\n"), None);
        assert!(!cpu_model().is_empty());
    }

    #[test]
    fn git_commit_outside_a_repository_is_unknown() {
        let dir = std::env::temp_dir().join(format!("engram-lab-nogit-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        // A temp folder can itself lie inside some repository; only check the shape then.
        let commit = git_commit(&dir);
        assert!(commit == "unknown" || commit.len() >= 12);
        let _ = fs::remove_dir_all(&dir);
        let here = git_commit(Path::new(env!("CARGO_MANIFEST_DIR")));
        assert!(here == "unknown" || here.len() >= 12, "{here}");
    }

    #[test]
    fn tables_render_as_github_markdown() {
        let mut t = Table::new(&[("policy", Align::Left), ("nodes", Align::Right)]);
        t.row(["depth|age", "1,234"]);
        t.row(vec!["x".to_string()]);
        t.row(["a", "b", "extra"]);
        let md = t.to_markdown();
        let lines: Vec<&str> = md.lines().collect();
        assert_eq!(lines[0], "| policy     | nodes |       |");
        assert_eq!(lines[1], "| :--------- | ----: | :---- |");
        assert_eq!(lines[2], "| depth\\|age | 1,234 |       |");
        assert_eq!(lines[3], "| x          |       |       |");
        assert_eq!(lines[4], "| a          |     b | extra |");
        assert_eq!(lines.len(), 5);
    }

    #[test]
    fn blocks_render() {
        let img = Block::Image {
            path: "img/tt-size.svg".into(),
            alt: "size [plot]".into(),
        };
        assert_eq!(img.to_markdown(), "![size plot](img/tt-size.svg)\n");
        let pre = Block::Pre("a ``` b\n".into());
        assert_eq!(pre.to_markdown(), "````text\na ``` b\n````\n");
        assert_eq!(Block::Pre("x".into()).to_markdown(), "```text\nx\n```\n");
    }

    #[test]
    fn report_has_header_contents_and_sections() {
        let header = Header {
            date: "2026-01-02 03:04 UTC".into(),
            cpu: "Test CPU".into(),
            cores: 2,
            commit: "0123456789ab".into(),
            bench: 1234567,
            bench_note: Some("depth 5".into()),
            command: "engram-lab all".into(),
        };
        let mut r = Report::new("TT lab", header);
        r.intro.push(Block::Paragraph("Intro.".into()));
        r.sections.push(Section::new("Table size"));
        let mut s = Section::new("Threads and a shared table");
        s.para("Body.");
        r.sections.push(s);
        let md = r.to_markdown();
        assert!(md.starts_with("# TT lab\n\n- Date: 2026-01-02 03:04 UTC\n"));
        assert!(md.contains("- CPU: Test CPU (2 logical cores)\n"));
        assert!(md.contains("- Bench: 1234567 (depth 5)\n"));
        assert!(md.contains("- Command: `engram-lab all`\n"));
        assert!(md.contains("- [Threads and a shared table](#threads-and-a-shared-table)\n"));
        assert!(md.contains("\n## Table size\n\n## Threads and a shared table\n\nBody.\n"));
    }

    #[test]
    fn a_report_is_written_atomically() {
        let dir = std::env::temp_dir().join(format!("engram-lab-atomic-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("r.md");
        let header = Header {
            date: "2026-01-02 03:04 UTC".into(),
            cpu: "Test CPU".into(),
            cores: 2,
            commit: "0123456789ab".into(),
            bench: 1234567,
            bench_note: None,
            command: "engram-lab all".into(),
        };
        let one = Report::new("one", header.clone());
        let two = Report::new("two", header);
        one.write(&path).unwrap();
        two.write(&path).unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), two.to_markdown());
        let names: Vec<_> = fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from("r.md")]);
        assert!(two.write(&dir.join("missing/r.md")).is_err());
        fs::remove_dir_all(&dir).unwrap();
    }
}
