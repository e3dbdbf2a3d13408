#!/usr/bin/env python3
"""Concrete execution speed of `fpsym run` (issue: symbolic execution).

Runs bench/run/concrete_loop.c (no inputs: one path) under `fpsym run` and,
in the same invocation, natively compiled by clang-14 at -O0 with the same
N; prints LLVM instructions per second and the time ratio fpsym/native.
The native program is run REPEAT times and the median taken (it is fast).

With --compare, also runs `fpsym run --no-fast-path` (every instruction
through the symbolic executor) in the same invocation and prints the
fast path's speedup over it.

Usage: bench/run/concrete_speed.py [--fpsym BIN] [--n 200000] [--repeat 20] [--compare]
"""
import argparse, json, os, statistics, subprocess, sys, tempfile, time

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(here))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--fpsym", default=os.path.join(root, "target", "release", "fpsym"))
    ap.add_argument("--n", type=int, default=200000)
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--compare", action="store_true", help="also run with --no-fast-path")
    a = ap.parse_args()
    src = os.path.join(here, "concrete_loop.c")
    with tempfile.TemporaryDirectory() as tmp:
        exe = os.path.join(tmp, "native")
        subprocess.run(["clang-14", "-O0", "-ffp-contract=off", f"-DN={a.n}", "-o", exe, src], check=True)
        native = []
        for _ in range(a.repeat):
            t0 = time.perf_counter()
            subprocess.run([exe])
            native.append(time.perf_counter() - t0)
        def fpsym(tag, extra):
            out = os.path.join(tmp, tag)
            t0 = time.perf_counter()
            p = subprocess.run([a.fpsym, "run", src, "-o", out, f"--cflag=-DN={a.n}"] + extra, capture_output=True, text=True)
            wall = time.perf_counter() - t0
            if p.returncode not in (0, 1, 4):  # verified, found, incomplete
                sys.exit(f"fpsym failed: {p.stderr}")
            return json.load(open(os.path.join(out, "stats.json")))["stats"], wall
        stats, wall = fpsym("out", [])
        slow = fpsym("slow", ["--no-fast-path"])[0] if a.compare else None
    n_instr, secs = stats["instructions"], stats["seconds"]
    nat = statistics.median(native)
    print(f"N = {a.n}: {n_instr} LLVM instructions in {secs:.2f} s (fpsym wall {wall:.2f} s incl. compile)")
    print(f"fpsym: {n_instr / secs:,.0f} instructions/s ({stats.get('fast_instructions', 0) / n_instr:.1%} on the fast path)")
    print(f"native -O0: {nat * 1000:.2f} ms (median of {a.repeat}, incl. process start)")
    print(f"ratio fpsym/native (execution time): {secs / nat:,.0f}")
    if slow:
        print(f"--no-fast-path: {slow['instructions'] / slow['seconds']:,.0f} instructions/s, ratio to native {slow['seconds'] / nat:,.0f}; fast path speedup {slow['seconds'] / secs:.1f}x")


if __name__ == "__main__":
    main()
