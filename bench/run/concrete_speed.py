#!/usr/bin/env python3
"""Concrete execution speed of `fpsym run` (issue: symbolic execution).

Runs bench/run/concrete_loop.c (no inputs: one path) under `fpsym run` and,
in the same invocation, natively compiled by clang-14 at -O0 with the same
N; prints LLVM instructions per second and the time ratio fpsym/native.
fpsym is run RUNS times (default 5, the issue's measure), each run
followed by REPEAT native runs, and the medians are compared: the
machine's speed drifts, and interleaving keeps both sides in the same
periods.

With --compare, also runs `fpsym run --no-fast-path` (every instruction
through the symbolic executor) in the same invocation and prints the
fast path's speedup over it.

Usage: bench/run/concrete_speed.py [--fpsym BIN] [--n 200000] [--runs 5] [--repeat 20] [--compare]
"""
import argparse, json, os, statistics, subprocess, sys, tempfile, time

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(here))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--fpsym", default=os.path.join(root, "target", "release", "fpsym"))
    ap.add_argument("--n", type=int, default=200000)
    ap.add_argument("--runs", type=int, default=5, help="fpsym runs (the median is reported)")
    ap.add_argument("--repeat", type=int, default=20, help="native runs after each fpsym run")
    ap.add_argument("--compare", action="store_true", help="also run with --no-fast-path")
    a = ap.parse_args()
    src = os.path.join(here, "concrete_loop.c")
    with tempfile.TemporaryDirectory() as tmp:
        exe = os.path.join(tmp, "native")
        subprocess.run(["clang-14", "-O0", "-ffp-contract=off", f"-DN={a.n}", "-o", exe, src], check=True)
        def native_runs():
            out = []
            for _ in range(a.repeat):
                t0 = time.perf_counter()
                subprocess.run([exe])
                out.append(time.perf_counter() - t0)
            return out
        def fpsym(tag, extra):
            out = os.path.join(tmp, tag)
            t0 = time.perf_counter()
            p = subprocess.run([a.fpsym, "run", src, "-o", out, "--force", f"--cflag=-DN={a.n}"] + extra, capture_output=True, text=True)
            wall = time.perf_counter() - t0
            if p.returncode not in (0, 1, 4):  # verified, found, incomplete
                sys.exit(f"fpsym failed: {p.stderr}")
            return json.load(open(os.path.join(out, "stats.json")))["stats"], wall
        native, runs = [], []
        for _ in range(max(1, a.runs)):
            runs.append(fpsym("out", []))
            native += native_runs()
        runs.sort(key=lambda r: r[0]["seconds"])
        stats, wall = runs[len(runs) // 2]
        slow = fpsym("slow", ["--no-fast-path"])[0] if a.compare else None
    n_instr, secs = stats["instructions"], stats["seconds"]
    nat = statistics.median(native)
    spread = ", ".join(f"{r[0]['seconds']:.2f}" for r in runs)
    print(f"N = {a.n}: {n_instr} LLVM instructions in {secs:.2f} s, median of {len(runs)} runs ({spread}; fpsym wall {wall:.2f} s incl. compile)")
    print(f"fpsym: {n_instr / secs:,.0f} instructions/s ({stats.get('fast_instructions', 0) / n_instr:.1%} on the fast path)")
    print(f"native -O0: {nat * 1000:.2f} ms (median of {len(native)}, incl. process start)")
    print(f"ratio fpsym/native (execution time): {secs / nat:,.0f}")
    if slow:
        print(f"--no-fast-path: {slow['instructions'] / slow['seconds']:,.0f} instructions/s, ratio to native {slow['seconds'] / nat:,.0f}; fast path speedup {slow['seconds'] / secs:.1f}x")


if __name__ == "__main__":
    main()
