//! The documentation (issue 35): the book in `docs/` builds with mdbook and
//! every relative link and anchor in it resolves; its CLI reference is what
//! the current clap definitions generate; the man pages and shell
//! completions are generated from the same definitions and `man -l` reads
//! them; README.md stays under 200 lines, names only example files that
//! exist, and its example prints what fpsym prints (times aside).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap()
}

/// A fresh, absent directory in the temporary directory.
fn scratch(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("fpsym-docs-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// Runs `fpsym-docs ARGS` and returns its standard output.
fn fpsym_docs(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_fpsym-docs"))
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "fpsym-docs {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn readme_is_short() {
    let readme = read(&workspace().join("README.md"));
    let lines = readme.lines().count();
    assert!(
        lines < 200,
        "README.md has {lines} lines: keep it under 200 (details go to the book in docs/)"
    );
}

#[test]
fn cli_reference_is_current() {
    let path = workspace().join("docs/src/reference/cli.md");
    let want = fpsym_docs(&["markdown"]);
    let have = read(&path);
    if have != want {
        let line = have
            .lines()
            .zip(want.lines())
            .position(|(a, b)| a != b)
            .unwrap_or_else(|| have.lines().count().min(want.lines().count()));
        panic!(
            "{} is stale (first difference at line {}): regenerate it with `make cli-reference` \
             (cargo run --release --bin fpsym-docs -- markdown docs/src/reference/cli.md)",
            path.display(),
            line + 1
        );
    }
}

/// The subcommands, from the generated reference's headings.
fn subcommands() -> Vec<String> {
    fpsym_docs(&["markdown"])
        .lines()
        .filter_map(|l| l.strip_prefix("## fpsym "))
        .map(str::to_string)
        .collect()
}

#[test]
fn man_pages_are_generated_and_readable() {
    let dir = scratch("man");
    fpsym_docs(&["man", dir.to_str().unwrap()]);
    let subs = subcommands();
    assert!(subs.len() >= 10, "{subs:?}");
    for page in std::iter::once("fpsym.1".to_string()).chain(subs.iter().map(|s| format!("fpsym-{s}.1"))) {
        let text = read(&dir.join(&page));
        assert!(
            text.starts_with(".ie") || text.contains(".TH"),
            "{page}: not a man page"
        );
    }
    let out = Command::new("man")
        .arg("-l")
        .arg(dir.join("fpsym-run.1"))
        .env("MANPAGER", "cat")
        .env("PAGER", "cat")
        .env("MANWIDTH", "100")
        .output()
        .unwrap_or_else(|e| panic!("`man` cannot run ({e}): install the Debian package man-db (scripts/bootstrap)"));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "man -l fpsym-run.1: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    for want in ["fpsym-run", "--max-time", "--function", "--finite-inputs"] {
        // man renders hyphens as U+2010 in some locales; compare on ASCII.
        let plain = text.replace(['\u{2010}', '\u{2212}'], "-");
        assert!(plain.contains(want), "man -l fpsym-run.1 lacks {want}:\n{text}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn shell_completions_are_generated() {
    let dir = scratch("completions");
    fpsym_docs(&["completions", dir.to_str().unwrap()]);
    for file in ["fpsym.bash", "_fpsym", "fpsym.fish"] {
        let text = read(&dir.join(file));
        for want in ["exceptions", "max-time", "finite-inputs"] {
            assert!(text.contains(want), "{file} lacks {want}");
        }
    }
    let check = Command::new("bash")
        .arg("-n")
        .arg(dir.join("fpsym.bash"))
        .output()
        .unwrap();
    assert!(
        check.status.success(),
        "bash -n fpsym.bash: {}",
        String::from_utf8_lossy(&check.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Builds the book into a fresh directory with mdbook; fails naming how to
/// install mdbook when it is missing.
fn build_book(tag: &str) -> PathBuf {
    let out = scratch(tag);
    let run = Command::new("mdbook")
        .arg("build")
        .arg(workspace().join("docs"))
        .arg("--dest-dir")
        .arg(&out)
        .output()
        .unwrap_or_else(|e| {
            panic!(
                "mdbook cannot run ({e}): install it with `scripts/bootstrap --book` \
                 (cargo install mdbook --version 0.5.4 --locked --no-default-features --features search)"
            )
        });
    let log = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "mdbook build docs failed:\n{log}");
    // mdbook reports broken chapter references and similar as warnings.
    let warnings: Vec<&str> = log
        .lines()
        .filter(|l| l.contains("WARN") || l.contains("ERROR"))
        .collect();
    assert!(
        warnings.is_empty(),
        "mdbook build docs warned:\n{}",
        warnings.join("\n")
    );
    out
}

/// Every `href="..."`/`src="..."` value of an HTML page.
fn links(html: &str) -> Vec<String> {
    let mut found = Vec::new();
    for attr in ["href=\"", "src=\""] {
        let mut rest = html;
        while let Some(i) = rest.find(attr) {
            rest = &rest[i + attr.len()..];
            if let Some(j) = rest.find('"') {
                found.push(rest[..j].to_string());
                rest = &rest[j..];
            }
        }
    }
    found
}

/// The element ids of an HTML page.
fn ids(html: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    for attr in [" id=\"", " name=\""] {
        let mut rest = html;
        while let Some(i) = rest.find(attr) {
            rest = &rest[i + attr.len()..];
            if let Some(j) = rest.find('"') {
                found.insert(rest[..j].to_string());
            }
        }
    }
    found
}

fn html_files(dir: &Path, into: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            html_files(&p, into);
        } else if p.extension().is_some_and(|x| x == "html") {
            into.push(p);
        }
    }
}

#[test]
fn book_builds_and_its_links_resolve() {
    let book = build_book("book");
    let mut pages = Vec::new();
    html_files(&book, &mut pages);
    assert!(pages.len() > 20, "the book has only {} pages", pages.len());
    let mut id_cache: BTreeMap<PathBuf, BTreeSet<String>> = BTreeMap::new();
    let mut broken = Vec::new();
    for page in &pages {
        // mdbook's 404 page is for a web server: its links are site-absolute.
        if page.file_name().is_some_and(|n| n == "404.html") {
            continue;
        }
        let html = read(page);
        for link in links(&html) {
            let external = ["http:", "https:", "mailto:", "javascript:", "data:", "//"];
            if external.iter().any(|p| link.starts_with(p)) {
                continue;
            }
            let (path, frag) = match link.split_once('#') {
                Some((p, f)) => (p, Some(f)),
                None => (link.as_str(), None),
            };
            let path = path.split('?').next().unwrap_or("");
            let target = if path.is_empty() {
                page.clone()
            } else {
                let t = page.parent().unwrap().join(path);
                if path.ends_with('/') {
                    t.join("index.html")
                } else {
                    t
                }
            };
            let Ok(target) = target.canonicalize() else {
                broken.push(format!(
                    "{}: {link}: no such file",
                    page.strip_prefix(&book).unwrap().display()
                ));
                continue;
            };
            if !target.starts_with(book.canonicalize().unwrap()) {
                broken.push(format!(
                    "{}: {link}: outside the book",
                    page.strip_prefix(&book).unwrap().display()
                ));
                continue;
            }
            if let Some(frag) = frag.filter(|f| !f.is_empty()) {
                if target.extension().is_some_and(|x| x == "html") {
                    let known = id_cache.entry(target.clone()).or_insert_with(|| ids(&read(&target)));
                    if !known.contains(frag) {
                        broken.push(format!(
                            "{}: {link}: no anchor #{frag}",
                            page.strip_prefix(&book).unwrap().display()
                        ));
                    }
                }
            }
        }
    }
    broken.sort();
    broken.dedup();
    assert!(broken.is_empty(), "broken links in the book:\n{}", broken.join("\n"));
    let _ = std::fs::remove_dir_all(&book);
}

/// `docs/examples/NAME.c` and `examples/...` paths named in the book and README.
fn named_example_files(text: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    for prefix in ["docs/examples/", "examples/c/", "examples/smtlib/"] {
        let mut rest = text;
        while let Some(i) = rest.find(prefix) {
            let tail = &rest[i..];
            let end = tail
                .find(|c: char| !(c.is_ascii_alphanumeric() || "_-./".contains(c)))
                .unwrap_or(tail.len());
            let name = tail[..end].trim_end_matches('.');
            if name.ends_with(".c") || name.ends_with(".smt2") {
                found.insert(name.to_string());
            }
            rest = &rest[i + prefix.len()..];
        }
    }
    found
}

#[test]
fn named_examples_exist() {
    let root = workspace();
    let mut texts = vec![read(&root.join("README.md"))];
    let mut stack = vec![root.join("docs/src")];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "md") {
                texts.push(read(&p));
            }
        }
    }
    let missing: Vec<String> = texts
        .iter()
        .flat_map(|t| named_example_files(t))
        .filter(|f| !root.join(f).exists())
        .collect();
    assert!(
        missing.is_empty(),
        "the docs name example files that do not exist: {missing:?}"
    );
}

#[test]
fn readme_links_resolve() {
    let root = workspace();
    let readme = read(&root.join("README.md"));
    let mut missing = Vec::new();
    let mut rest = readme.as_str();
    while let Some(i) = rest.find("](") {
        rest = &rest[i + 2..];
        let Some(j) = rest.find(')') else { break };
        let target = &rest[..j];
        if !target.starts_with("http") {
            let file = target.split('#').next().unwrap_or("");
            if !file.is_empty() && !root.join(file).exists() {
                missing.push(target.to_string());
            }
        }
    }
    assert!(
        missing.is_empty(),
        "README.md links to files that do not exist: {missing:?}"
    );
}

/// A line with its times masked: a number followed by ` s` (seconds) and
/// the solver's share of the time on the summary's `instructions:` line.
fn mask_times(line: &str) -> String {
    let chars: Vec<char> = line.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        if chars[i].is_ascii_digit() && (i == 0 || !chars[i - 1].is_ascii_alphanumeric()) {
            let start = i;
            while i < chars.len() && (chars[i].is_ascii_digit() || chars[i] == '.') {
                i += 1;
            }
            let seconds = chars.get(i) == Some(&' ')
                && chars.get(i + 1) == Some(&'s')
                && chars.get(i + 2).is_none_or(|c| !c.is_ascii_alphanumeric());
            if seconds {
                out.push('T');
            } else {
                out.extend(&chars[start..i]);
            }
            continue;
        }
        out.push(chars[i]);
        i += 1;
    }
    if out.starts_with("instructions:") {
        if let Some(open) = out.rfind('(') {
            if out.ends_with("%)") {
                out.truncate(open);
                out.push_str("(share)");
            }
        }
    }
    out
}

/// The README's checked example: the first ```console block after the
/// marker, as (command, expected output) pairs.
fn readme_example(readme: &str) -> Vec<(String, Vec<String>)> {
    let marker = "<!-- checked by crates/cli/tests/docs.rs";
    let at = readme
        .find(marker)
        .unwrap_or_else(|| panic!("README.md lacks the marker `{marker}` before its example"));
    let block = &readme[at..];
    let start = block.find("```console\n").expect("a ```console block after the marker") + "```console\n".len();
    let end = block[start..].find("```").expect("the console block's end") + start;
    let mut steps: Vec<(String, Vec<String>)> = Vec::new();
    for line in block[start..end].lines() {
        if let Some(cmd) = line.strip_prefix("$ ") {
            steps.push((cmd.to_string(), Vec::new()));
        } else if let Some(last) = steps.last_mut() {
            last.1.push(line.to_string());
        }
    }
    steps
}

#[test]
fn readme_example_prints_what_fpsym_prints() {
    let root = workspace();
    let readme = read(&root.join("README.md"));
    let steps = readme_example(&readme);
    assert!(!steps.is_empty(), "the README's example has no `$ ` command");
    // Run where the README's relative paths resolve, in a scratch copy.
    let dir = scratch("readme");
    std::fs::create_dir_all(dir.join("docs")).unwrap();
    let examples = dir.join("docs/examples");
    std::fs::create_dir_all(&examples).unwrap();
    for e in std::fs::read_dir(root.join("docs/examples")).unwrap() {
        let p = e.unwrap().path();
        std::fs::copy(&p, examples.join(p.file_name().unwrap())).unwrap();
    }
    let prefix = format!("{}/", dir.canonicalize().unwrap().display());
    for (cmd, want) in steps {
        let words: Vec<&str> = cmd.split_whitespace().collect();
        let printed = match words.as_slice() {
            ["cat", file] => read(&dir.join(file)),
            ["fpsym", args @ ..] => {
                let out = Command::new(env!("CARGO_BIN_EXE_fpsym"))
                    .args(args)
                    .current_dir(&dir)
                    .output()
                    .unwrap();
                String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr)
            }
            _ => panic!("README example: only `cat FILE` and `fpsym ...` commands are checked, not `{cmd}`"),
        };
        let have: Vec<String> = printed.replace(&prefix, "").lines().map(mask_times).collect();
        let want: Vec<String> = want.iter().map(|l| mask_times(l)).collect();
        assert_eq!(
            have,
            want,
            "README.md's example `{cmd}` no longer prints what fpsym prints (times and the \
             working directory aside); update the README with:\n{}",
            printed.replace(&prefix, "")
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn times_are_masked() {
    assert_eq!(
        mask_times("instructions: 17  solver: 9 queries, 2.01 s of 2.01 s (100%)"),
        "instructions: 17  solver: 9 queries, T s of T s (share)"
    );
    assert_eq!(
        mask_times("branch coverage (LLVM IR, your code): 6/6 (100.0%)"),
        "branch coverage (LLVM IR, your code): 6/6 (100.0%)"
    );
    assert_eq!(mask_times("a 1.5 sec x3 s"), "a 1.5 sec x3 s");
}
