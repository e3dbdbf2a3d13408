//! `fpsym batch` and `fpsym merge` end to end: a library of two files
//! (crates/cli/tests/c/batch_lib.c, batch_util.c), each function in its own
//! process, results.jsonl, statuses (done, crashed, timed-out, skipped,
//! out-of-memory), the manifest, sharding and merging as a cluster runs
//! them (bench/batch/shards.py), --resume, and the reports over all.

mod common;

use fpsym_report::{BatchRecord, EntryRecord, JobResult, JobStatus, BATCH_RECORD, RESULTS};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn scratch(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("fpsym-batch-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn c(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/c")
        .join(name)
        .display()
        .to_string()
}

fn fpsym(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_fpsym")).args(args).output().unwrap()
}

fn text(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr)
}

/// results.jsonl by function (every line a [`JobResult`]).
fn results(dir: &Path) -> std::collections::BTreeMap<String, JobResult> {
    let t = std::fs::read_to_string(dir.join(RESULTS)).unwrap();
    t.lines()
        .map(|l| {
            let v: JobResult = common::parse(l);
            (v.function.clone(), v)
        })
        .collect()
}

fn kinds(r: &JobResult) -> Vec<String> {
    let mut k: Vec<String> = r.findings.iter().map(|f| f.kind.to_string()).collect();
    k.sort();
    k.dedup();
    k
}

#[test]
fn every_function_runs_in_its_own_process_with_its_findings_confirmed() {
    let dir = scratch("all");
    let out = dir.join("out");
    let (lib, util) = (c("batch_lib.c"), c("batch_util.c"));
    let o = fpsym(&[
        "batch",
        &lib,
        &util,
        "--functions",
        "ratio,mix,half,scaled,util_scale",
        "--mode",
        "exceptions",
        "--jobs",
        "2",
        "--max-time-per-function",
        "20",
        "--replay",
        "-o",
        out.to_str().unwrap(),
    ]);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(1), "{t}");
    let r = results(&out);
    assert_eq!(r.len(), 5, "{t}");
    for (f, v) in &r {
        assert_eq!(v.status, JobStatus::Done, "{f}: {v:?}");
        // Each finding was replayed natively and confirmed.
        for x in &v.findings {
            assert_eq!(x.confirmed, Some(true), "{f}: {x:?}");
        }
        assert!(out.join(&v.dir).join("run.json").is_file(), "{f}");
    }
    assert_eq!(r["ratio"].file, lib.as_str());
    assert_eq!(r["util_scale"].file, util.as_str());
    assert_eq!(r["mix"].verdict.as_deref(), Some("verified"));
    assert_eq!(r["ratio"].verdict.as_deref(), Some("bug-found"));
    assert_eq!(
        kinds(&r["ratio"]),
        ["fp-divide-by-zero", "fp-invalid", "fp-overflow", "fp-underflow"]
    );
    assert_eq!(kinds(&r["half"]), ["fp-underflow"]);
    assert!(
        kinds(&r["util_scale"]).contains(&"fp-overflow".to_string()),
        "{:?}",
        r["util_scale"]
    );
    // `scaled` overflows inside util_scale (the other file) or in twice.
    assert!(
        kinds(&r["scaled"]).contains(&"fp-overflow".to_string()),
        "{:?}",
        r["scaled"]
    );
    // Compiled once: the children loaded the shared build.
    assert!(out.join("build/program.bc").is_file());
    for v in r.values() {
        let b = out.join(&v.dir).join("build");
        assert!(
            b.symlink_metadata().unwrap().file_type().is_symlink(),
            "{}",
            b.display()
        );
        assert_eq!(std::fs::read_link(&b).unwrap(), Path::new("../../../build"));
    }
    // Natively too: five replay builds compiled each file at most once per
    // flag set that changes its code (with or without clang's
    // float-cast-overflow sanitizer), into the shared build.
    for file in ["batch_lib", "batch_util"] {
        let objects = std::fs::read_dir(out.join("build/native"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with(&format!("{file}-")) && n.ends_with(".o"))
            .count();
        assert!((1..=2).contains(&objects), "{file}: {objects} objects");
    }
    // The reports over all functions.
    let sarif: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("report.sarif")).unwrap()).unwrap();
    let total: usize = r.values().map(|v| v.findings.len()).sum();
    assert_eq!(sarif["runs"][0]["results"].as_array().unwrap().len(), total);
    assert_eq!(sarif["runs"][0]["invocations"].as_array().unwrap().len(), 5);
    let junit = std::fs::read_to_string(out.join("junit.xml")).unwrap();
    let doc = roxmltree::Document::parse(&junit).unwrap();
    let status_cases = doc
        .descendants()
        .filter(|n| n.has_tag_name("testcase") && n.attribute("name") == Some("status: done"))
        .count();
    assert_eq!(status_cases, 5, "{junit}");
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(html.contains("fpsym batch --mode exceptions"), "{html}");
    assert!(html.contains("By kind") && html.contains("fp-divide-by-zero"), "{html}");
    assert!(html.contains("functions/batch_util/util_scale/report.html"), "{html}");
    // The summary printed.
    assert!(t.contains("status: 5 done"), "{t}");
    assert!(t.contains("confirmed natively"), "{t}");
}

#[test]
fn a_crash_a_time_limit_a_hang_and_an_input_error_are_recorded_and_the_batch_goes_on() {
    let dir = scratch("statuses");
    let out = dir.join("out");
    // A wrapper that crashes the analysis of `mix` (as a bug in fpsym would).
    let wrapper = dir.join("crash-mix.sh");
    std::fs::write(
        &wrapper,
        "#!/bin/sh\nprev=\nfor a in \"$@\"; do\n  if [ \"$prev\" = --function ] && [ \"$a\" = mix ]; then kill -SEGV $$; fi\n  prev=$a\ndone\nexec \"$@\"\n",
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&wrapper, std::fs::Permissions::from_mode(0o755)).unwrap();
    // The manifest: per-function options; `half` names a parameter it
    // does not have (an input error of that function only).
    let manifest = dir.join("jobs.jsonl");
    std::fs::write(
        &manifest,
        "{\"function\": \"ratio\", \"args\": [\"--range\", \"b=[1,2]\", \"--range\", \"a=[1,2]\"]}\n\
         {\"function\": \"mix\"}\n\
         {\"function\": \"half\", \"args\": [\"--range\", \"y=[0,1]\"]}\n\
         {\"function\": \"spin\", \"max_time\": 1}\n",
    )
    .unwrap();
    let lib = c("batch_lib.c");
    let o = fpsym(&[
        "batch",
        &lib,
        &c("batch_util.c"),
        "--manifest",
        manifest.to_str().unwrap(),
        "--mode",
        "exceptions",
        "--max-time-per-function",
        "20",
        "--wrapper",
        wrapper.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    let t = text(&o);
    // Findings (spin underflows) win over the crash (exit 3 otherwise).
    assert_eq!(o.status.code(), Some(1), "{t}");
    let r = results(&out);
    assert_eq!(r.len(), 4, "{t}");
    assert_eq!(r["mix"].status, JobStatus::Crashed, "{:?}", r["mix"]);
    assert!(r["mix"].why.as_deref().unwrap().contains("SIGSEGV"), "{:?}", r["mix"]);
    assert_eq!(r["half"].status, JobStatus::Skipped, "{:?}", r["half"]);
    assert!(
        r["half"].why.as_deref().unwrap().contains("--range y"),
        "{:?}",
        r["half"]
    );
    assert_eq!(r["spin"].status, JobStatus::TimedOut, "{:?}", r["spin"]);
    // a and b in [1, 2]: nothing raised (the manifest's ranges applied).
    assert_eq!(r["ratio"].status, JobStatus::Done, "{:?}", r["ratio"]);
    assert_eq!(r["ratio"].verdict.as_deref(), Some("verified"), "{:?}", r["ratio"]);
    // JUnit: the crash fails, the others are marked skipped, with the reason.
    let junit = std::fs::read_to_string(out.join("junit.xml")).unwrap();
    assert!(junit.contains("name=\"status: crashed\""), "{junit}");
    assert!(junit.contains("SIGSEGV"), "{junit}");
    assert!(junit.contains("skipped message=\"timed-out: "), "{junit}");
    let sarif = std::fs::read_to_string(out.join("report.sarif")).unwrap();
    assert!(sarif.contains("mix: crashed"), "{sarif}");
    // The crashed function's suite names it and the batch's mode.
    assert!(junit.contains("fpsym exceptions --function mix"), "{junit}");
    // --resume analyses the crashed function again (here without the
    // wrapper), and only it.
    let o = fpsym(&[
        "batch",
        &lib,
        &c("batch_util.c"),
        "--manifest",
        manifest.to_str().unwrap(),
        "--mode",
        "exceptions",
        "--max-time-per-function",
        "20",
        "-o",
        out.to_str().unwrap(),
        "--resume",
    ]);
    assert!(
        text(&o).contains("4 functions: 1 to analyse (3 done before)"),
        "{}",
        text(&o)
    );
    let r = results(&out);
    assert_eq!(r.len(), 4);
    assert_eq!(r["mix"].status, JobStatus::Done, "{:?}", r["mix"]);
    assert_eq!(r["mix"].verdict.as_deref(), Some("verified"), "{:?}", r["mix"]);
    // A process that outgrows its memory is killed and recorded.
    let out2 = dir.join("oom");
    let o = fpsym(&[
        "batch",
        &lib,
        "--functions",
        "half",
        "--mode",
        "exceptions",
        "--max-memory-per-function",
        "1",
        "-o",
        out2.to_str().unwrap(),
    ]);
    let r = results(&out2);
    assert_eq!(
        r["half"].status,
        JobStatus::OutOfMemory,
        "{:?}\n{}",
        r["half"],
        text(&o)
    );
    assert_eq!(o.status.code(), Some(4), "{}", text(&o));
}

#[test]
fn shards_merged_equal_the_unsharded_batch_and_resume_finishes_the_rest() {
    let dir = scratch("shards");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../bench/batch/shards.py");
    let (lib, util) = (c("batch_lib.c"), c("batch_util.c"));
    for (recipe, replay) in [("slurm", "--replay"), ("k8s", "--print")] {
        let o = Command::new("python3")
            .arg(&script)
            .args([
                "--fpsym",
                env!("CARGO_BIN_EXE_fpsym"),
                "--shards",
                "3",
                "--recipe",
                recipe,
            ])
            .arg("--out")
            .arg(dir.join(recipe))
            .args(["--", &lib, &util, "--functions", "ratio,mix,half,scaled,util_scale"])
            .args(["--mode", "exceptions", "--max-time-per-function", "20", replay])
            .output()
            .unwrap_or_else(|e| panic!("python3 (Debian package python3) did not start: {e}"));
        let t = text(&o);
        assert_eq!(o.status.code(), Some(0), "{recipe}: {t}");
        assert!(t.contains("merge equals the unsharded run"), "{t}");
        assert!(t.contains("5 functions"), "{t}");
    }
    // Overlapping shards are refused by merge.
    let d = dir.join("slurm");
    let o = fpsym(&[
        "merge",
        d.join("shard-0").to_str().unwrap(),
        d.join("unsharded").to_str().unwrap(),
        "-o",
        dir.join("bad").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("overlap"), "{}", text(&o));
    // A missing shard is said, and the merge is incomplete (exit 1 here:
    // findings; the missing functions are listed).
    let o = fpsym(&[
        "merge",
        d.join("shard-0").to_str().unwrap(),
        "-o",
        dir.join("partial").to_str().unwrap(),
    ]);
    assert!(text(&o).contains("missing ("), "{}", text(&o));
    let junit = std::fs::read_to_string(dir.join("partial/junit.xml")).unwrap();
    assert!(junit.contains("name=\"status: missing\""), "{junit}");
    let merged: BatchRecord = common::record(&dir.join("partial"), BATCH_RECORD);
    assert!(!merged.missing.is_empty(), "{merged:?}");

    // --resume: a batch cut after one function finishes the others only.
    let out = dir.join("resume");
    let args = |extra: &[&str]| {
        let mut a = vec![
            "batch",
            lib.as_str(),
            "--functions",
            "mix,half,ratio",
            "--mode",
            "exceptions",
            "--max-time-per-function",
            "20",
            "-o",
            out.to_str().unwrap(),
        ];
        a.extend_from_slice(extra);
        fpsym(&a)
    };
    let o = args(&[]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let full = std::fs::read_to_string(out.join("results.jsonl")).unwrap();
    let first = full.lines().next().unwrap().to_string();
    std::fs::write(out.join("results.jsonl"), format!("{first}\n")).unwrap();
    let o = args(&["--resume"]);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(1), "{t}");
    assert!(t.contains("3 functions: 2 to analyse (1 done before)"), "{t}");
    assert_eq!(results(&out).len(), 3);
    // The same directory without --resume or --force is refused, and so
    // is --resume with other options.
    assert_eq!(args(&[]).status.code(), Some(2));
    let o = args(&["--resume", "--replay"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("other options (the mode's options)"), "{}", text(&o));
}

#[test]
fn bad_batches_are_refused_naming_why() {
    let dir = scratch("usage");
    let lib = c("batch_lib.c");
    let out = dir.join("out");
    let o_s = out.to_str().unwrap();
    for (args, expect) in [
        (vec!["--functions", "nope", "--mode", "run"], "no function `nope`"),
        (
            vec!["--all-functions", "--mode", "run", "--max-time", "3"],
            "use --max-time-per-function",
        ),
        (
            vec!["--all-functions", "--mode", "run", "--shard", "2/2"],
            "--shard 2/2",
        ),
        (vec!["--all-functions", "--mode", "path"], "--reach"),
        (vec!["--all-functions", "--mode", "run", "--bogus"], "--bogus"),
        (vec!["--mode", "run"], "--all-functions"),
        (
            vec!["--all-functions", "--mode", "run", "--wrapper", "no-such-wrapper -x"],
            "`no-such-wrapper`",
        ),
    ] {
        let mut a = vec!["batch", lib.as_str()];
        a.extend(args.iter().copied());
        a.extend(["-o", o_s, "--force"]);
        let o = fpsym(&a);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o));
        assert!(text(&o).contains(expect), "{args:?}: {}", text(&o));
    }
    // A directory that is not a batch's is not touched.
    std::fs::create_dir_all(dir.join("mine")).unwrap();
    std::fs::write(dir.join("mine/notes.txt"), "keep").unwrap();
    let o = fpsym(&[
        "batch",
        &lib,
        "--all-functions",
        "--mode",
        "run",
        "-o",
        dir.join("mine").to_str().unwrap(),
        "--force",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(dir.join("mine/notes.txt").is_file());
    let o = fpsym(&["merge", dir.to_str().unwrap(), "-o", dir.join("m").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("not a batch's output directory"), "{}", text(&o));
}

#[test]
fn the_modes_answer_is_in_the_results_and_a_closed_stdout_is_no_crash() {
    let dir = scratch("answer");
    let out = dir.join("error");
    let lib = c("batch_lib.c");
    // `error`: the maximum relative error and its input per function.
    let o = fpsym(&[
        "batch",
        &lib,
        "--functions",
        "half",
        "--mode",
        "error",
        "--max-time-per-function",
        "2",
        "-o",
        out.to_str().unwrap(),
    ]);
    let r = results(&out);
    // The mode's answer: the small fields of error.json, as JSON (no type
    // of its own: whichever fields are small).
    let res = r["half"].result.as_ref().unwrap_or_else(|| panic!("{:?}", r["half"]));
    assert!(res["max_relative_error"].is_number(), "{:?}\n{}", r["half"], text(&o));
    assert_eq!(res["inputs"][0]["name"], "x", "{res}");
    assert!(text(&o).contains("max relative error"), "{}", text(&o));
    // Output piped into `head`: the batch finishes, records every
    // function and writes its reports.
    let piped = dir.join("piped");
    let o = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "'{}' batch '{lib}' --functions ratio,mix,half --mode exceptions -o '{}' 2>/dev/null | head -1",
            env!("CARGO_BIN_EXE_fpsym"),
            piped.display()
        ))
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&o.stdout).lines().count(), 1);
    // The shell's pipeline ends with head's status; wait for fpsym's files.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while !piped.join("report.html").is_file() && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    assert!(piped.join("report.html").is_file());
    assert_eq!(results(&piped).len(), 3);
}

/// `entry.array_len` of a function's run.json in a batch directory (None:
/// not a `--function` run).
fn array_len(out: &Path, r: &JobResult) -> Option<u64> {
    match common::run_record(&out.join(&r.dir)).entry {
        EntryRecord::Function { array_len, .. } => Some(array_len),
        EntryRecord::Main { .. } => None,
    }
}

#[test]
fn array_len_is_given_per_function() {
    // sum3 reads three elements, first one: `--array-len sum3=3` gives
    // sum3 its three (no out-of-bounds), every other function one.
    let dir = scratch("array-len");
    let lib = c("array_sum.c");
    let out = dir.join("named");
    let o = fpsym(&[
        "batch",
        &lib,
        "--functions",
        "sum3,first",
        "--mode",
        "run",
        "--max-time-per-function",
        "5",
        "-o",
        out.to_str().unwrap(),
        "--",
        "--array-len",
        "1",
        "--array-len",
        "sum3=3",
    ]);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(0), "{t}");
    let r = results(&out);
    assert_eq!(array_len(&out, &r["sum3"]), Some(3), "{t}");
    assert_eq!(array_len(&out, &r["first"]), Some(1), "{t}");
    assert_eq!(kinds(&r["sum3"]), Vec::<String>::new(), "{t}");
    // The same for all: sum3 reads past its one element.
    let out = dir.join("all");
    let o = fpsym(&[
        "batch",
        &lib,
        "--functions",
        "sum3",
        "--mode",
        "run",
        "--max-time-per-function",
        "5",
        "-o",
        out.to_str().unwrap(),
        "--",
        "--array-len",
        "1",
    ]);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(1), "{t}");
    assert_eq!(kinds(&results(&out)["sum3"]), ["out-of-bounds"], "{t}");
    // A manifest's "array_len" is the job's own.
    let manifest = dir.join("jobs.jsonl");
    std::fs::write(
        &manifest,
        "{\"function\": \"sum3\", \"array_len\": 3}\n{\"function\": \"first\"}\n",
    )
    .unwrap();
    let out = dir.join("manifest");
    let o = fpsym(&[
        "batch",
        &lib,
        "--manifest",
        manifest.to_str().unwrap(),
        "--mode",
        "run",
        "--max-time-per-function",
        "5",
        "-o",
        out.to_str().unwrap(),
        "--",
        "--array-len",
        "2",
    ]);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(0), "{t}");
    let r = results(&out);
    assert_eq!(array_len(&out, &r["sum3"]), Some(3), "{t}");
    assert_eq!(array_len(&out, &r["first"]), Some(2), "{t}");
    // A name the batch does not analyse is an input error.
    let o = fpsym(&[
        "batch",
        &lib,
        "--functions",
        "first",
        "--mode",
        "run",
        "-o",
        dir.join("typo").to_str().unwrap(),
        "--",
        "--array-len",
        "sum=3",
    ]);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(2), "{t}");
    assert!(
        t.contains("--array-len sum=3: `sum` is not one of the functions the batch analyses"),
        "{t}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
