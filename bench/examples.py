#!/usr/bin/env python3
"""Every program in examples/c/: `fpsym run --replay --coverage`, one line each.

Prints, per example: completed/partial paths, tests, findings, findings
confirmed by native replay, line and branch coverage of the example (native,
over all generated tests), verdict and wall time. Flags per example come
from its `// fpsym-flags:` header line (e.g. a loop bound).

Usage: bench/examples.py [--fpsym BIN] [--max-time 60] [--only NAME]
"""
import argparse, glob, json, os, re, subprocess, sys, tempfile, time

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(here)


def flags_of(path):
    with open(path) as f:
        for line in f:
            m = re.match(r"\s*(?://|/?\*)\s*fpsym-flags:\s*(.*?)\s*(?:\*/)?\s*$", line)
            if m:
                return m.group(1).split()
    return []


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--fpsym", default=os.path.join(root, "target", "release", "fpsym"))
    ap.add_argument("--max-time", type=float, default=60)
    ap.add_argument("--only", action="append")
    a = ap.parse_args()
    files = sorted(glob.glob(os.path.join(root, "examples", "c", "*.c")))
    if a.only:
        files = [f for f in files if any(o in os.path.basename(f) for o in a.only)]
    print(f"{'example':<26} {'paths':>9} {'tests':>5} {'find':>4} {'conf':>4} {'lines':>7} {'branches':>8}  {'time':>6}  verdict")
    with tempfile.TemporaryDirectory() as tmp:
        for f in files:
            name = os.path.basename(f)[:-2]
            out = os.path.join(tmp, name)
            argv = [a.fpsym, "run", f, "-o", out, "--replay", "--coverage", "--max-time", str(a.max_time)] + flags_of(f)
            t0 = time.monotonic()
            p = subprocess.run(argv, capture_output=True, text=True)
            sec = time.monotonic() - t0
            try:
                st = json.load(open(os.path.join(out, "stats.json")))
                rp = json.load(open(os.path.join(out, "replay.json")))
            except (OSError, ValueError):
                print(f"{name:<26} failed (exit {p.returncode}): {p.stderr.strip().splitlines()[-1:] }")
                continue
            s = st["stats"]
            found = rp["findings"]
            conf = sum(1 for x in found if x["confirmed"])
            cov = rp.get("coverage", {})
            pct = lambda k: f"{cov[k]['percent']:.0f}%" if cov.get(k) and cov[k].get("count") else "-"
            verdict = st["verdict"]["verdict"]
            print(f"{name:<26} {s['paths_completed']:>4}/{s['paths_partial']:<4} {s['tests']:>5} {len(found):>4} {conf:>4} "
                  f"{pct('lines'):>7} {pct('branches'):>8}  {sec:>5.1f}s  {verdict}", flush=True)


if __name__ == "__main__":
    main()
