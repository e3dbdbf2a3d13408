#!/usr/bin/env python3
"""Table II of seed 000 for fpsym's cp backend: dichotomic() path conditions.

Generates the path scripts (gen_dichotomic.py), then decides each with
`fpsym solve --solver cp`, with and without ULP-Max, and z3 as a reference in
the same run. Prints per path: answer, NbC (constraints), NbV (variables),
NbE (ULP-Max firings), NbD (floats pruned by ULP-Max, millions), time with
and without ULP-Max, z3 time, and the ratio cp/z3.

Usage: bench/cp/dichotomic.py [--timeout 30] [--fpsym BIN] [--no-z3]
"""
import argparse, json, os, subprocess, sys, time

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(here))


def run(fpsym, path, args, timeout):
    t0 = time.monotonic()
    try:
        p = subprocess.run([fpsym, "solve", "--timeout", str(timeout), "--stats", "json", *args, path],
                           capture_output=True, text=True, timeout=timeout * 2 + 10)
    except subprocess.TimeoutExpired:
        return "killed", time.monotonic() - t0, {}
    dt = time.monotonic() - t0
    out = p.stdout.split()
    ans = out[0] if p.returncode == 0 and out else f"error({p.returncode})"
    stats = {}
    for line in p.stderr.splitlines():
        if line.startswith("{"):
            try:
                stats = json.loads(line)
            except ValueError:
                pass
    if p.returncode != 0:
        sys.stderr.write(f"{path}: {p.stderr.strip()[-300:]}\n")
    return ans, dt, stats


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--timeout", type=float, default=30)
    ap.add_argument("--fpsym", default=os.path.join(root, "target", "release", "fpsym"))
    ap.add_argument("--no-z3", action="store_true")
    ap.add_argument("--out", default=os.path.join(root, "target", "bench", "dichotomic"))
    a = ap.parse_args()
    subprocess.run([sys.executable, os.path.join(here, "gen_dichotomic.py"), a.out], check=True, stdout=subprocess.DEVNULL)
    files = sorted(f for f in os.listdir(a.out) if f.endswith(".smt2"))
    print(f"timeout {a.timeout:g}s; times in seconds (wall, whole process)")
    print(f"{'path':<24}{'answer':>8}{'NbC':>6}{'NbV':>6}{'NbE':>8}{'NbD(M)':>10}{'prune%':>8}{'w/ ULP':>9}{'w/o':>9}{'ans w/o':>8}{'z3':>9}{'z3 ans':>8}{'w/ / z3':>9}")
    for f in files:
        p = os.path.join(a.out, f)
        ans, t, s = run(a.fpsym, p, ["--solver", "cp"], a.timeout)
        ans0, t0, _ = run(a.fpsym, p, ["--solver", "cp", "--no-ulp-max"], a.timeout)
        if a.no_z3:
            zans, zt = "-", float("nan")
        else:
            zans, zt, _ = run(a.fpsym, p, ["--solver", "z3"], a.timeout)
        nbe = s.get("cp.ulp_max_firings", 0)
        nbd = s.get("cp.ulp_max_pruned", 0) / 1e6
        prune = s.get("cp.ulp_max_pruned_percent", float("nan"))
        ratio = t / zt if zans in ("sat", "unsat") else float("nan")
        print(f"{f[:-5]:<24}{ans:>8}{int(s.get('cp.constraints', 0)):>6}{int(s.get('cp.variables', 0)):>6}{int(nbe):>8}{nbd:>10.3f}"
              f"{prune:>8.2f}{t:>9.3f}{t0:>9.3f}{ans0:>8}{zt:>9.3f}{zans:>8}{ratio:>9.3f}")


if __name__ == "__main__":
    main()
