#!/usr/bin/env python3
"""GNU GSL's special functions through `fpsym batch --mode exceptions`.

The sweep of bench/exceptions (seed 003's corpus), as one command over a
library built once: the chosen specfunc files as C (their external
functions are the jobs) and, as bitcode, every library file they need
(the union of their dependency closures, from gsl_sweep.py's index).

It measures, in one invocation:
  - wall time of the batch with --jobs 1 and with --jobs 2 (same
    functions, same per-function limit), and their ratio;
  - the per-function time distribution (min, quartiles, max) and the
    statuses (done, timed-out, crashed, ...);
  - findings by kind, with how many native replay confirmed (--replay);
  - the same batch as 2 shards (`--shard 0/2`, `--shard 1/2`, run at the
    same time, one job each) merged with `fpsym merge`: every function in
    exactly one shard, and status/verdict/finding kinds compared with the
    unsharded run (functions that reached their time limit in either run
    can differ: the search is time-limited).

Setup (GSL's source, config.h, the bitcode index) is gsl_sweep.py's, into
the same cache (default target/bench-cache/gsl).

Usage:
  bench/batch/gsl_batch.py [--fpsym BIN] [--files GLOB ...] [--limit N]
      [--time-per-function S] [--replay] [--out DIR] [--cache DIR]
Writes OUT/summary.md and OUT/summary.json; the batches' directories are
OUT/jobs-1, OUT/jobs-2, OUT/shard-0, OUT/shard-1, OUT/merged.
Exit 0 when the shards' merge covers every function once and every
replayed finding is confirmed, 1 otherwise, 2 when setup fails.
"""
import argparse, fnmatch, json, os, statistics, subprocess, sys, time

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(here))
sys.path.insert(0, os.path.join(root, "bench", "exceptions"))
import gsl_sweep  # noqa: E402  (setup: fetch, configure, index, closure)

DEFAULT_FILES = ["airy.c", "bessel_J0.c", "bessel_Y0.c", "erfc.c", "exp.c", "expint.c", "gamma.c",
                 "log.c", "psi.c", "zeta.c", "trig.c", "pow_int.c", "dilog.c", "elementary.c"]


def results(d):
    out = {}
    p = os.path.join(d, "results.jsonl")
    if os.path.isfile(p):
        for line in open(p):
            if line.strip():
                r = json.loads(line)
                out[(r["file"], r["function"])] = r
    return out


def batch(a, files, src, out, extra):
    argv = [a.fpsym, "batch"] + files + ["-I", src, "--all-functions", "--mode", "exceptions",
                                         "--max-time-per-function", str(a.time_per_function),
                                         "--grace", str(a.grace), "-o", out, "--force"] + extra
    if a.replay:
        argv.append("--replay")
    t0 = time.monotonic()
    p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return p, t0


def finish(p, t0, name, out):
    stdout, stderr = p.communicate()
    wall = time.monotonic() - t0
    with open(os.path.join(out, f"{name}.log"), "w") as f:
        f.write(stdout + "\n--- stderr\n" + stderr)
    if p.returncode in (2, 3) and "crashed" not in stdout:
        raise SystemExit(f"{name}: fpsym batch failed (exit {p.returncode}):\n{stdout[-2000:]}{stderr[-2000:]}")
    return wall


def quartiles(xs):
    xs = sorted(xs)
    if not xs:
        return {}
    q = statistics.quantiles(xs, n=4) if len(xs) > 1 else [xs[0]] * 3
    return {"min": xs[0], "q1": q[0], "median": q[1], "q3": q[2], "max": xs[-1]}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--fpsym", default=os.path.join(root, "target", "release", "fpsym"))
    ap.add_argument("--files", action="append", help="specfunc files matching this glob (repeatable); "
                    f"default: {' '.join(DEFAULT_FILES)}")
    ap.add_argument("--limit", type=int, help="only the first N files")
    ap.add_argument("--time-per-function", type=float, default=5)
    ap.add_argument("--grace", type=float, default=60)
    ap.add_argument("--replay", action="store_true", help="replay natively (the mode's --replay)")
    ap.add_argument("--out", default=os.path.join(root, "target", "bench", "gsl-batch"))
    ap.add_argument("--cache", default=os.path.join(root, "target", "bench-cache", "gsl"))
    a = ap.parse_args()
    a.fpsym = os.path.abspath(a.fpsym)
    if not os.access(a.fpsym, os.X_OK):
        print(f"{a.fpsym}: not an executable (cargo build --release, or --fpsym)", file=sys.stderr)
        return 2
    try:
        src = gsl_sweep.fetch(a.cache)
        gsl_sweep.configure(src)
        idx = gsl_sweep.index(src, a.cache, 2)
    except gsl_sweep.SetupError as e:
        print(f"setup: {e}", file=sys.stderr)
        return 2
    specfunc = sorted(f for f in idx if f.startswith("specfunc/"))
    globs = a.files or DEFAULT_FILES
    targets = [f for f in specfunc if any(fnmatch.fnmatch(os.path.basename(f), g) for g in globs)]
    if a.limit:
        targets = targets[:a.limit]
    if not targets:
        print("no specfunc file matches", file=sys.stderr)
        return 2
    deps = []
    for t in targets:
        for d in gsl_sweep.closure(t, idx)[0]:
            if d not in targets and d not in deps:
                deps.append(d)
    files = [os.path.join(src, t) for t in targets] + [idx[d]["bc"] for d in deps]
    os.makedirs(a.out, exist_ok=True)
    print(f"{len(targets)} specfunc files, {len(deps)} dependencies as bitcode; "
          f"{a.time_per_function} s per function", file=sys.stderr)

    walls = {}
    for jobs in (1, 2):
        name = f"jobs-{jobs}"
        print(f"batch --jobs {jobs} ...", file=sys.stderr)
        p, t0 = batch(a, files, src, os.path.join(a.out, name), ["--jobs", str(jobs)])
        walls[name] = finish(p, t0, name, a.out)
    # Two shards at the same time, one job each (two machines of one core).
    procs = []
    for i in range(2):
        procs.append((f"shard-{i}", *batch(a, files, src, os.path.join(a.out, f"shard-{i}"), ["--shard", f"{i}/2"])))
    for name, p, t0 in procs:
        walls[name] = finish(p, t0, name, a.out)
    merged = os.path.join(a.out, "merged")
    m = subprocess.run([a.fpsym, "merge", os.path.join(a.out, "shard-0"), os.path.join(a.out, "shard-1"), "-o",
                        merged, "--force"], capture_output=True, text=True)
    merge_ok = m.returncode in (0, 1, 4)

    one, two = results(os.path.join(a.out, "jobs-1")), results(os.path.join(a.out, "jobs-2"))
    shards = [results(os.path.join(a.out, f"shard-{i}")) for i in range(2)]
    mer = results(merged)
    overlap = set(shards[0]) & set(shards[1])
    covered = set(shards[0]) | set(shards[1])
    same, differ, limited = 0, [], 0
    for k, r in two.items():
        g = mer.get(k)
        if g is None:
            continue
        if "timed-out" in (r["status"], g["status"]):
            limited += 1
            continue
        kinds = lambda x: sorted({f["kind"] for f in x["findings"]})
        if (r["status"], r["verdict"], kinds(r)) == (g["status"], g["verdict"], kinds(g)):
            same += 1
        else:
            differ.append(f"{k[1]}: {r['status']}/{r['verdict']}/{kinds(r)} vs {g['status']}/{g['verdict']}/{kinds(g)}")
    rows = list(two.values())
    status, verdicts, kinds_n, conf, replayed = {}, {}, {}, {}, {}
    for r in rows:
        status[r["status"]] = status.get(r["status"], 0) + 1
        verdicts[r["verdict"] or "none"] = verdicts.get(r["verdict"] or "none", 0) + 1
        for f in r["findings"]:
            kinds_n[f["kind"]] = kinds_n.get(f["kind"], 0) + 1
            if f["confirmed"] is not None:
                replayed[f["kind"]] = replayed.get(f["kind"], 0) + 1
                conf[f["kind"]] = conf.get(f["kind"], 0) + int(f["confirmed"])
    summary = {
        "files": targets, "dependencies": deps, "functions": len(two), "time_per_function": a.time_per_function,
        "walls": walls, "speedup_jobs2": walls["jobs-1"] / walls["jobs-2"] if walls["jobs-2"] else None,
        "time_per_function_distribution": {"jobs-1": quartiles([r["time"] for r in one.values()]),
                                           "jobs-2": quartiles([r["time"] for r in rows])},
        "status": status, "verdicts": verdicts, "findings_by_kind": kinds_n,
        "confirmed_by_kind": conf, "replayed_by_kind": replayed,
        "shards": {"sizes": [len(s) for s in shards], "overlap": len(overlap),
                   "covered": len(covered), "merged": len(mer), "merge_exit": m.returncode,
                   "same_as_unsharded": same, "different": differ, "time_limited": limited},
    }
    json.dump(summary, open(os.path.join(a.out, "summary.json"), "w"), indent=1)
    d = summary["time_per_function_distribution"]["jobs-2"]
    md = [f"# fpsym batch over GSL specfunc ({len(targets)} files, {len(two)} functions, "
          f"{a.time_per_function} s each{', replayed' if a.replay else ''})", "",
          "| run | wall s |", "|---|---|"]
    md += [f"| {k} | {v:.1f} |" for k, v in walls.items()]
    md += ["", f"--jobs 2 vs --jobs 1: {summary['speedup_jobs2']:.2f}x faster", "",
           "Per-function seconds (--jobs 2): " + ", ".join(f"{k} {v:.1f}" for k, v in d.items()), "",
           "Status: " + ", ".join(f"{n} {k}" for k, n in sorted(status.items())),
           "Verdicts: " + ", ".join(f"{n} {k}" for k, n in sorted(verdicts.items())), "",
           "| kind | findings | confirmed natively |", "|---|---|---|"]
    md += [f"| {k} | {n} | {conf.get(k, 0)} of {replayed.get(k, 0)} |" if a.replay else f"| {k} | {n} | not replayed |"
           for k, n in sorted(kinds_n.items())]
    md += ["", f"2 shards: {summary['shards']['sizes']} functions, overlap {len(overlap)}, "
           f"{len(covered)} of {len(two)} covered, merged {len(mer)} (merge exit {m.returncode}); "
           f"{same} the same as unsharded, {limited} time-limited (not compared), {len(differ)} different"]
    md += [f"- different: {x}" for x in differ]
    open(os.path.join(a.out, "summary.md"), "w").write("\n".join(md) + "\n")
    print("\n".join(md))
    unconfirmed = sum(replayed.values()) - sum(conf.values())
    ok = merge_ok and not overlap and covered == set(two) and len(mer) == len(two) and unconfirmed == 0
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
