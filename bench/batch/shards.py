#!/usr/bin/env python3
"""Runs one `fpsym batch` as N shards in separate processes, as a cluster
would, merges them, and checks the merge against the same batch unsharded.

Each shard is started the way a recipe of the book's "Across machines"
(docs/src/modes/batch.md) starts it, through `sh -c` with the scheduler's variables set:

  slurm: SLURM_ARRAY_TASK_ID=i SLURM_ARRAY_TASK_COUNT=N
         fpsym batch ... --shard "$SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT" -o OUT/shard-$SLURM_ARRAY_TASK_ID
  k8s:   JOB_COMPLETION_INDEX=i (an Indexed Job with completions: N)
         fpsym batch ... --shard "$JOB_COMPLETION_INDEX/N" -o OUT/shard-$JOB_COMPLETION_INDEX

Checks:
  - every function of the batch is in exactly one shard (`fpsym merge`
    refuses overlapping shards; a missing function is reported);
  - the merged results.jsonl lists the same functions as the unsharded
    run, each with the same status, verdict and findings (kind, file, line,
    confirmed). Functions that reached their time limit in either run are
    compared by presence only (a time-limited search may find other
    things in two runs); they are listed.
  - the merged directory has its reports (report.html, report.sarif,
    junit.xml) and each function's run directory.

Usage:
  bench/batch/shards.py [--fpsym BIN] [--shards N] [--recipe slurm|k8s]
      [--out DIR] -- BATCH_ARGS...
BATCH_ARGS are those of `fpsym batch` without -o and --shard, e.g.
  -- lib.c --all-functions --mode exceptions --max-time-per-function 5 --replay
Exit 0 when the merge equals the unsharded run, 1 when it does not, 2 on
a usage error or when a fpsym command fails (exit 2 or 3).
"""
import argparse, json, os, shlex, shutil, subprocess, sys, time

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(here))


def run(argv, env=None, shell=False):
    t0 = time.monotonic()
    p = subprocess.run(argv, capture_output=True, text=True, env=env, shell=shell)
    return p, time.monotonic() - t0


def results(d):
    out = {}
    with open(os.path.join(d, "results.jsonl")) as f:
        for line in f:
            if line.strip():
                r = json.loads(line)
                out[(r["file"], r["function"])] = r
    return out


def comparable(r):
    findings = sorted((f["kind"], f["file"], f["line"], f["confirmed"]) for f in r["findings"])
    return {"status": r["status"], "verdict": r["verdict"], "findings": findings}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--fpsym", default=os.path.join(root, "target", "release", "fpsym"))
    ap.add_argument("--shards", type=int, default=2)
    ap.add_argument("--recipe", choices=["slurm", "k8s"], default="slurm")
    ap.add_argument("--out", default=os.path.join(root, "target", "bench", "batch-shards"))
    ap.add_argument("batch", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    batch = a.batch[1:] if a.batch[:1] == ["--"] else a.batch
    if not batch or a.shards < 1:
        ap.error("give the batch's arguments after --, and --shards >= 1")
    if not os.access(a.fpsym, os.X_OK):
        print(f"{a.fpsym}: not an executable (cargo build --release, or --fpsym)", file=sys.stderr)
        return 2
    fpsym = os.path.abspath(a.fpsym)
    shutil.rmtree(a.out, ignore_errors=True)
    os.makedirs(a.out)
    whole = os.path.join(a.out, "unsharded")
    p, t_whole = run([fpsym, "batch"] + batch + ["-o", whole])
    if p.returncode in (2, 3):
        print(f"unsharded batch failed (exit {p.returncode}):\n{p.stdout}{p.stderr}", file=sys.stderr)
        return 2
    # The shards, all at once, each in its own process as on N machines.
    procs = []
    t0 = time.monotonic()
    for i in range(a.shards):
        env = dict(os.environ)
        if a.recipe == "slurm":
            env.update(SLURM_ARRAY_TASK_ID=str(i), SLURM_ARRAY_TASK_COUNT=str(a.shards))
            shard, name = '"$SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT"', "shard-$SLURM_ARRAY_TASK_ID"
        else:
            env.update(JOB_COMPLETION_INDEX=str(i))
            shard, name = f'"$JOB_COMPLETION_INDEX/{a.shards}"', "shard-$JOB_COMPLETION_INDEX"
        cmd = " ".join([shlex.quote(fpsym), "batch"] + [shlex.quote(x) for x in batch] +
                       ["--shard", shard, "-o", shlex.quote(a.out) + "/" + name])
        procs.append((i, subprocess.Popen(cmd, shell=True, env=env, stdout=subprocess.PIPE,
                                          stderr=subprocess.PIPE, text=True)))
    for i, pr in procs:
        out, err = pr.communicate()
        if pr.returncode in (2, 3):
            print(f"shard {i} failed (exit {pr.returncode}):\n{out}{err}", file=sys.stderr)
            return 2
    t_shards = time.monotonic() - t0
    shard_dirs = [os.path.join(a.out, f"shard-{i}") for i in range(a.shards)]
    merged = os.path.join(a.out, "merged")
    p, _ = run([fpsym, "merge"] + shard_dirs + ["-o", merged])
    if p.returncode in (2, 3):
        print(f"merge failed (exit {p.returncode}):\n{p.stdout}{p.stderr}", file=sys.stderr)
        return 2
    want, got = results(whole), results(merged)
    per_shard = [len(results(d)) for d in shard_dirs]
    problems = []
    for k in sorted(set(want) | set(got)):
        if k not in got:
            problems.append(f"{k[0]}: {k[1]}: missing from the merge")
        elif k not in want:
            problems.append(f"{k[0]}: {k[1]}: in the merge only")
    limited = []
    for k in sorted(set(want) & set(got)):
        if "timed-out" in (want[k]["status"], got[k]["status"]):
            limited.append(f"{k[0]}: {k[1]}")
            continue
        if comparable(want[k]) != comparable(got[k]):
            problems.append(f"{k[0]}: {k[1]}: unsharded {comparable(want[k])}, merged {comparable(got[k])}")
        if not os.path.isfile(os.path.join(merged, got[k]["dir"], "run.json")):
            problems.append(f"{k[0]}: {k[1]}: no run directory in the merge")
    for name in ["report.html", "report.sarif", "junit.xml"]:
        if not os.path.isfile(os.path.join(merged, name)):
            problems.append(f"the merge has no {name}")
    print(f"{len(want)} functions; shards of {per_shard} ({a.recipe} recipe); "
          f"unsharded {t_whole:.1f} s, {a.shards} shards at once {t_shards:.1f} s")
    if limited:
        print(f"compared by presence only (a time limit was reached): {', '.join(limited)}")
    for pr in problems:
        print("DIFFERENT: " + pr)
    print("merge equals the unsharded run" if not problems else f"{len(problems)} differences")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
