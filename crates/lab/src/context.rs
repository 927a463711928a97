//! The run context handed to every study ([`Ctx`]), and where a run writes its output
//! ([`resolve_out`]).

use anyhow::{bail, Context as _};
use indicatif::{MultiProgress, ProgressBar, ProgressStyle};
use std::path::{Component, Path, PathBuf};

/// What a study needs to know about the run.
#[derive(Debug)]
pub struct Ctx {
    /// A quick run: fewer positions, lower depths, output never in `docs/`.
    pub quick: bool,
    /// The output folder (absolute); the report goes here.
    pub out: PathBuf,
    /// The image folder (absolute), `<out>/img`.
    pub img: PathBuf,
    /// Progress bars, drawn on stderr (hidden when stderr is not a terminal).
    pub progress: MultiProgress,
}

impl Ctx {
    /// A context writing into `out` (made absolute against the current folder) and
    /// `<out>/img`. Creates no folders: see [`Ctx::create_dirs`].
    pub fn new(quick: bool, out: impl Into<PathBuf>) -> Ctx {
        let out = out.into();
        let out = std::path::absolute(&out).unwrap_or(out);
        Ctx {
            quick,
            img: out.join("img"),
            out,
            progress: MultiProgress::new(),
        }
    }

    /// Creates the output and image folders.
    pub fn create_dirs(&self) -> anyhow::Result<()> {
        std::fs::create_dir_all(&self.img)
            .with_context(|| format!("cannot create {}", self.img.display()))
    }

    /// A progress bar of `len` steps labelled `label`, added to [`Ctx::progress`].
    pub fn bar(&self, len: u64, label: &str) -> ProgressBar {
        let style = ProgressStyle::with_template(
            "{prefix:>14.bold} [{bar:30.cyan/blue}] {pos}/{len} {msg} ({elapsed}, eta {eta})",
        )
        .expect("valid progress template")
        .progress_chars("=> ");
        let bar = self.progress.add(ProgressBar::new(len));
        bar.set_style(style);
        bar.set_prefix(label.to_string());
        bar
    }

    /// A spinner labelled `label` for work of unknown length, added to [`Ctx::progress`].
    pub fn spinner(&self, label: &str) -> ProgressBar {
        let style = ProgressStyle::with_template("{prefix:>14.bold} {spinner} {msg} ({elapsed})")
            .expect("valid progress template");
        let bar = self.progress.add(ProgressBar::new_spinner());
        bar.set_style(style);
        bar.set_prefix(label.to_string());
        bar.enable_steady_tick(std::time::Duration::from_millis(200));
        bar
    }

    /// Prints a line on stderr without tearing the progress bars.
    pub fn log(&self, line: impl AsRef<str>) {
        if self.progress.is_hidden() {
            eprintln!("{}", line.as_ref());
        } else {
            let _ = self.progress.println(line.as_ref());
        }
    }

    /// Where the image `name` goes: the absolute file `<img>/tt-<name>.svg` and the link to
    /// write into the report, `img/tt-<name>.svg`. Characters other than ASCII letters,
    /// digits, `-` and `_` in `name` become `-`.
    pub fn img_path(&self, name: &str) -> (PathBuf, String) {
        let clean: String = name
            .trim_end_matches(".svg")
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                    c
                } else {
                    '-'
                }
            })
            .collect();
        let file = format!("tt-{clean}.svg");
        (self.img.join(&file), format!("img/{file}"))
    }
}

/// The workspace root, found at compile time as `CARGO_MANIFEST_DIR/../..`.
pub fn workspace_root() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    dir.canonicalize().unwrap_or_else(|_| normalize(&dir))
}

/// The committed documentation folder, `<root>/docs`, where full runs write by default.
pub fn docs_dir(root: &Path) -> PathBuf {
    root.join("docs")
}

/// The default folder of quick runs, `<root>/target/lab-quick`.
pub fn quick_dir(root: &Path) -> PathBuf {
    root.join("target").join("lab-quick")
}

/// The output folder of a run. Without `out`: `<root>/docs` for a full run and
/// `<root>/target/lab-quick` for a quick one. A relative `out` is taken from `cwd`. A quick
/// run is refused when the folder is the committed docs folder or inside it (after
/// following symbolic links and `..`), so quick numbers never land in `docs/`.
pub fn resolve_out(
    root: &Path,
    quick: bool,
    out: Option<&Path>,
    cwd: &Path,
) -> anyhow::Result<PathBuf> {
    let dir = match out {
        None if quick => quick_dir(root),
        None => docs_dir(root),
        Some(p) => normalize(&cwd.join(p)),
    };
    if quick {
        let docs = resolve_links(&docs_dir(root));
        let target = resolve_links(&dir);
        if target.starts_with(&docs) {
            bail!(
                "refusing to write a --quick run into the committed docs folder ({}): quick \
                 numbers must not end up in docs/; use another --out, or drop --out to write \
                 to {}",
                docs.display(),
                quick_dir(root).display()
            );
        }
    }
    Ok(dir)
}

/// Removes `.` and resolves `..` lexically (without touching the file system).
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// `path` with symbolic links resolved as far as it exists: the longest existing ancestor is
/// canonicalized and the rest appended (then normalized).
fn resolve_links(path: &Path) -> PathBuf {
    let path = normalize(path);
    let mut existing = path.as_path();
    let mut rest = Vec::new();
    loop {
        if let Ok(canon) = existing.canonicalize() {
            let mut out = canon;
            for part in rest.iter().rev() {
                out.push(part);
            }
            return normalize(&out);
        }
        match (existing.parent(), existing.file_name()) {
            (Some(parent), Some(name)) => {
                rest.push(name.to_os_string());
                existing = parent;
            }
            _ => return path,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tmp(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("engram-lab-ctx-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn default_folders() {
        let root = workspace_root();
        assert!(root.join("Cargo.toml").is_file());
        assert!(root.join("crates/lab").is_dir());
        assert_eq!(
            resolve_out(&root, false, None, &root).unwrap(),
            root.join("docs")
        );
        let quick = resolve_out(&root, true, None, &root).unwrap();
        assert_eq!(quick, root.join("target/lab-quick"));
        assert!(!quick.starts_with(root.join("docs")));
    }

    #[test]
    fn quick_runs_never_target_docs() {
        let root = workspace_root();
        let cwd = root.join("crates/lab");
        for out in [
            root.join("docs"),
            root.join("docs/"),
            root.join("docs/img"),
            root.join("docs/new/sub"),
            root.join("crates/../docs"),
            root.join("./docs/."),
            PathBuf::from("../../docs"),
        ] {
            let err = resolve_out(&root, true, Some(&out), &cwd).unwrap_err();
            assert!(err.to_string().contains("refusing"), "{out:?}: {err}");
            // A full run may write there.
            assert!(resolve_out(&root, false, Some(&out), &cwd).is_ok());
        }
        let other = resolve_out(&root, true, Some(Path::new("docs-quick")), &root).unwrap();
        assert_eq!(other, root.join("docs-quick"));
    }

    #[test]
    fn relative_out_is_taken_from_cwd() {
        let cwd = tmp("cwd");
        let root = workspace_root();
        let dir = resolve_out(&root, true, Some(Path::new("a/./b/../c")), &cwd).unwrap();
        assert_eq!(dir, cwd.join("a/c"));
        let abs = resolve_out(&root, false, Some(&cwd.join("x")), Path::new("/")).unwrap();
        assert_eq!(abs, cwd.join("x"));
        std::fs::remove_dir_all(&cwd).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn a_link_to_docs_is_docs() {
        let dir = tmp("link");
        let root = workspace_root();
        let link = dir.join("docs-link");
        let _ = std::fs::remove_file(&link);
        std::os::unix::fs::symlink(root.join("docs"), &link).unwrap();
        assert!(resolve_out(&root, true, Some(&link), &dir).is_err());
        assert!(resolve_out(&root, true, Some(&link.join("img")), &dir).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn image_paths() {
        let ctx = Ctx::new(true, "/tmp/lab-out");
        assert_eq!(ctx.img, PathBuf::from("/tmp/lab-out/img"));
        let (abs, link) = ctx.img_path("size-nodes");
        assert_eq!(abs, PathBuf::from("/tmp/lab-out/img/tt-size-nodes.svg"));
        assert_eq!(link, "img/tt-size-nodes.svg");
        assert_eq!(ctx.img_path("a b/c.svg").1, "img/tt-a-b-c.svg");
    }

    #[test]
    fn relative_ctx_out_becomes_absolute() {
        let ctx = Ctx::new(false, "some/dir");
        assert!(ctx.out.is_absolute());
        assert!(ctx.img.ends_with("some/dir/img"));
    }
}
