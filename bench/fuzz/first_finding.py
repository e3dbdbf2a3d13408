#!/usr/bin/env python3
"""Time to first finding on examples/c/*.c, with and without the native
fuzzing phase (`fpsym run --fuzz-time`), in one run.

For each example (flags from its `// fpsym-flags:` lines) `fpsym run` runs
twice under the same --max-time: with `--fuzz-time 0` (symbolic search
alone) and with `--fuzz-time F` (the fuzzing phase, then the seeded
search). The time to first finding is from the process start to the
first file written in OUT/findings/ (findings are written as found; both
include the clang build, the fuzzing run also its harness build). Also
printed: findings, those marked as found by fuzzing (fuzz-finding
events), and the solver calls (queries not answered by a seed).

Usage: bench/fuzz/first_finding.py [--fpsym BIN] [--max-time 30] [--fuzz-time 3] [--only NAME]
"""
import argparse, glob, json, os, re, subprocess, tempfile, time

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(here))


def flags_of(path):
    flags = []
    with open(path) as f:
        for line in f:
            m = re.match(r"\s*(?://|/?\*)\s*fpsym-flags:\s*(.*?)\s*(?:\*/)?\s*$", line)
            if m:
                flags += m.group(1).split()
    return flags


def one(fpsym, src, out, max_time, fuzz_time):
    argv = [fpsym, "run", src, "-o", out, "--max-time", str(max_time), "--fuzz-time", str(fuzz_time)] + flags_of(src)
    t0 = time.time()
    p = subprocess.run(argv, capture_output=True, text=True)
    wall = time.time() - t0
    fdir = os.path.join(out, "findings")
    times = [os.path.getmtime(os.path.join(fdir, f)) - t0 for f in os.listdir(fdir)] if os.path.isdir(fdir) else []
    try:
        st = json.load(open(os.path.join(out, "stats.json")))["stats"]
    except (OSError, ValueError):
        return {"error": f"exit {p.returncode}: {p.stderr.strip().splitlines()[-1:]}"}
    marked = 0
    try:
        with open(os.path.join(out, "events.jsonl")) as f:
            marked = sum(1 for l in f if '"fuzz-finding"' in l)
    except OSError:
        pass
    return {
        "first": min(times) if times else None,
        "findings": len(times),
        "marked": marked,
        "solver": st["queries"] - st.get("seeded_queries", 0),
        "wall": wall,
    }


def fmt(t):
    return f"{t:6.2f}" if t is not None else "     -"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--fpsym", default=os.path.join(root, "target", "release", "fpsym"))
    ap.add_argument("--max-time", type=float, default=30)
    ap.add_argument("--fuzz-time", type=float, default=3)
    ap.add_argument("--only", action="append")
    a = ap.parse_args()
    files = sorted(glob.glob(os.path.join(root, "examples", "c", "*.c")))
    if a.only:
        files = [f for f in files if any(o in os.path.basename(f) for o in a.only)]
    print(f"{'example':<26} {'first s (sym)':>13} {'first s (fuzz)':>14} {'find':>9} {'by fuzz':>7} {'solver calls':>13} {'wall s':>13}")
    with tempfile.TemporaryDirectory() as tmp:
        for f in files:
            name = os.path.basename(f)[:-2]
            s = one(a.fpsym, f, os.path.join(tmp, name + "-sym"), a.max_time, 0)
            z = one(a.fpsym, f, os.path.join(tmp, name + "-fuzz"), a.max_time, a.fuzz_time)
            if "error" in s or "error" in z:
                print(f"{name:<26} failed: {s.get('error') or z.get('error')}")
                continue
            print(
                f"{name:<26} {fmt(s['first']):>13} {fmt(z['first']):>14} {s['findings']:>4}/{z['findings']:<4} {z['marked']:>7}"
                f" {s['solver']:>6}/{z['solver']:<6} {s['wall']:>6.1f}/{z['wall']:<6.1f}"
            )


if __name__ == "__main__":
    main()
