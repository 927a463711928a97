//! `engram-lab`: runs the TT lab's studies and writes the report.
//!
//! ```text
//! engram-lab all [--quick] [--out DIR]       # every study → <out>/tt-report.md
//! engram-lab <study> [--quick] [--out DIR]   # one study   → <out>/tt-report-<study>.md
//! ```
//!
//! Without `--out` a full run writes into the workspace's `docs/` and a quick run into
//! `target/lab-quick/`; a quick run never writes into `docs/`. Images go to `<out>/img/`.

use anyhow::bail;
use clap::builder::PossibleValue;
use clap::{Parser, ValueEnum};
use engram_lab::context::{resolve_out, workspace_root, Ctx};
use engram_lab::defaults;
use engram_lab::report::{Header, Report, Section};
use engram_lab::studies::{self, StudyId};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::OnceLock;

/// Bench depth of a quick run (a full run uses the engine's default bench depth, so its
/// `Bench:` value is the commit's signature).
const QUICK_BENCH_DEPTH: i32 = 5;

/// The TT lab: transposition-table experiments on Engram's search, written up as a Markdown
/// report with SVG plots.
#[derive(Parser, Debug)]
#[command(
    name = "engram-lab",
    version,
    after_help = "Examples:\n  \
        engram-lab all                 every study: docs/tt-report.md, docs/img/tt-*.svg\n  \
        engram-lab all --quick         quick check: target/lab-quick/tt-report.md\n  \
        engram-lab size --out /tmp/x   one study: /tmp/x/tt-report-size.md, /tmp/x/img/"
)]
struct Cli {
    /// `all` (every study: the full report, tt-report.md) or one study
    #[arg(value_enum, value_name = "STUDY")]
    target: Target,
    /// Quick run (fewer positions, lower depths) to check the lab works; never writes into docs/
    #[arg(long, global = true)]
    quick: bool,
    /// Output folder [default: docs/ of the workspace; target/lab-quick/ with --quick]
    #[arg(long, global = true, value_name = "DIR")]
    out: Option<PathBuf>,
}

/// What to run: every study, or one (the list is [`StudyId::ALL`], named by
/// [`StudyId::name`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Target {
    All,
    One(StudyId),
}

impl Target {
    /// The single study to run, or `None` for all of them.
    fn study(self) -> Option<StudyId> {
        match self {
            Target::All => None,
            Target::One(id) => Some(id),
        }
    }
}

impl ValueEnum for Target {
    fn value_variants<'a>() -> &'a [Self] {
        static TARGETS: OnceLock<Vec<Target>> = OnceLock::new();
        TARGETS.get_or_init(|| {
            std::iter::once(Target::All)
                .chain(StudyId::ALL.map(Target::One))
                .collect()
        })
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(match self {
            Target::All => PossibleValue::new("all").help("every study: the full report"),
            Target::One(id) => PossibleValue::new(id.name()).help(id.title()),
        })
    }
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("engram-lab: error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn run(cli: Cli) -> anyhow::Result<()> {
    let root = workspace_root();
    let cwd = std::env::current_dir()?;
    let out = resolve_out(&root, cli.quick, cli.out.as_deref(), &cwd)?;
    let ctx = Ctx::new(cli.quick, out);
    ctx.create_dirs()?;

    let single = cli.target.study();
    let (ids, file, title) = match single {
        None => (
            StudyId::ALL.to_vec(),
            "tt-report.md".to_string(),
            "Engram transposition-table lab".to_string(),
        ),
        Some(id) => (
            vec![id],
            format!("tt-report-{}.md", id.name()),
            format!("Engram transposition-table lab: {}", id.title()),
        ),
    };
    let report_path = ctx.out.join(file);

    let mut header = Header::collect(&root, 0, command_line());
    header.bench = bench(&ctx)?;
    if ctx.quick {
        header.bench_note = Some(format!(
            "depth {QUICK_BENCH_DEPTH}, quick run: not the commit's bench signature"
        ));
    }
    let mut report = Report::new(title, header);
    report.intro = studies::intro(&ctx);

    let mut failed = Vec::new();
    for id in ids {
        let start = std::time::Instant::now();
        match studies::run(id, &ctx) {
            Ok(mut section) => {
                let secs = start.elapsed().as_secs_f64();
                section.para(format!("*This study ran for {secs:.0} s.*"));
                ctx.log(format!("{}: {secs:.0} s", id.name()));
                report.sections.push(section);
            }
            Err(e) => {
                ctx.log(format!("study {} failed: {e:#}", id.name()));
                let mut section = Section::new(id.title());
                section.para(format!("**This study failed:** {e:#}"));
                report.sections.push(section);
                failed.push(id.name());
            }
        }
    }
    // The defaults rest on the replacement study, so they close any report that has it.
    if single.is_none() || single == Some(StudyId::Replacement) {
        report.sections.push(defaults::section()?);
    }
    report.write(&report_path)?;
    ctx.log(format!("wrote {}", report_path.display()));
    if !failed.is_empty() {
        bail!("study failed: {}", failed.join(", "));
    }
    Ok(())
}

/// The engine's bench node count: at the default depth for a full run (the commit's
/// `Bench:` signature), at [`QUICK_BENCH_DEPTH`] for a quick one.
fn bench(ctx: &Ctx) -> anyhow::Result<u64> {
    let spinner = ctx.spinner("bench");
    let depth = if ctx.quick {
        QUICK_BENCH_DEPTH
    } else {
        engram::bench::DEFAULT_DEPTH
    };
    spinner.set_message(format!("depth {depth}"));
    let cfg = engram::bench::Config {
        depth,
        ..engram::bench::Config::default()
    };
    let result = engram::bench::run(cfg, false);
    spinner.finish_and_clear();
    let (nodes, _ms) = result.map_err(|e| anyhow::anyhow!("bench failed: {e}"))?;
    Ok(nodes)
}

/// The command line as typed, with the program shown as `engram-lab`.
fn command_line() -> String {
    std::iter::once("engram-lab".to_string())
        .chain(std::env::args_os().skip(1).map(|a| {
            let a = a.to_string_lossy().into_owned();
            if a.is_empty() || a.contains(|c: char| c.is_whitespace() || c == '\'') {
                format!("'{}'", a.replace('\'', r"'\''"))
            } else {
                a
            }
        }))
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn targets_are_all_then_the_studies_in_order() {
        Cli::command().debug_assert();
        let names: Vec<String> = Target::value_variants()
            .iter()
            .map(|t| t.to_possible_value().unwrap().get_name().to_string())
            .collect();
        let mut expected = vec!["all".to_string()];
        expected.extend(StudyId::ALL.iter().map(|id| id.name().to_string()));
        assert_eq!(names, expected);
    }

    #[test]
    fn names_map_to_their_study() {
        for id in StudyId::ALL {
            let cli = Cli::try_parse_from(["engram-lab", id.name(), "--quick"]).unwrap();
            assert_eq!(cli.target.study(), Some(id));
            assert!(cli.quick);
        }
        let cli = Cli::try_parse_from(["engram-lab", "--out", "x", "all"]).unwrap();
        assert_eq!(
            (cli.target.study(), cli.out),
            (None, Some(PathBuf::from("x")))
        );
        assert!(Cli::try_parse_from(["engram-lab"]).is_err());
        assert!(Cli::try_parse_from(["engram-lab", "nosuch"]).is_err());
    }
}
