#!/usr/bin/env python3
"""The solver chain on dichotomic()'s path queries (seed 000, Fig. 2, Table II).

Two query series over the two 12-iteration paths of bench/cp/gen_dichotomic.py
(the path of dichotomic(-10, 10), if-outcomes FTTFTTTTTTTT, and the all-then
path), each written as one script with push/pop:
  --series paths     the cp issue's series: its 24 path conditions (12
                     prefixes, 12 loop exits), in its order; all sat.
  --series executor  what a symbolic executor asks while following those two
                     paths: at each loop test and each `if`, is each side
                     feasible? 96 check-sats, 16 of them unsat.

Runs `fpsym solve` on that one script with the full chain (query cache,
counterexample reuse, independence) and with the bare portfolio
(--no-cache --no-independence), alternating, REPEAT times each, and prints
the median wall times and their ratio (same invocation, same machine).

Usage: bench/chain/dichotomic_series.py [--fpsym BIN] [--repeat 3] [--timeout 30] [--solver portfolio]
"""
import argparse, os, statistics, subprocess, sys, time

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(here))
F32 = "Float32"
PATHS = {"p": "FTTFTTTTTTTT", "e": "TTTTTTTTTTTT"}


def c(x):
    return f"((_ to_fp 8 24) RNE (- {x[1:]}))" if x.startswith("-") else f"((_ to_fp 8 24) RNE {x})"


def path_terms(out, tag, outcomes):
    """Defines the path's terms; returns per iteration (loop test, branch
    condition as taken) and the loop test after the last iteration."""
    f = lambda x: f"(fp.sub RNE (fp.mul RNE {x} {x}) {c('2.0')})"
    xl, xr = "xL_0", "xR_0"
    steps = []
    for i, o in enumerate(outcomes, 1):
        loop = f"(fp.gt (fp.sub RNE {xr} {xl}) {c('0.0001')})"
        m = f"{tag}_xM_{i}"
        out.append(f"(define-fun {m} () {F32} (fp.div RNE (fp.add RNE {xr} {xl}) {c('2.0')}))")
        cond = f"(fp.gt (fp.mul RNE {f(xl)} {f(m)}) {c('-1.0')})"
        steps.append((loop, cond if o == "T" else f"(not {cond})", cond))
        if o == "T":
            xl = m
        else:
            xr = m
    return steps, f"(fp.gt (fp.sub RNE {xr} {xl}) {c('0.0001')})"


def script(series):
    out = ["(set-logic QF_FP)", f"(declare-fun xL_0 () {F32})", f"(declare-fun xR_0 () {F32})"]
    steps = {tag: path_terms(out, tag, o) for tag, o in PATHS.items()}
    if series == "paths":
        # The 24 path conditions of bench/cp/gen_dichotomic.py, in its order:
        # prefixes of the FTT... path, then the all-then path exiting after k.
        for k in range(1, 13):
            out.append("(push 1)")
            for loop, taken, _ in steps["p"][0][:k]:
                out += [f"(assert {loop})", f"(assert {taken})"]
            out += ["(check-sat)", "(pop 1)"]
        for k in range(1, 13):
            out.append("(push 1)")
            st, last = steps["e"]
            for loop, taken, _ in st[:k]:
                out += [f"(assert {loop})", f"(assert {taken})"]
            after = st[k][0] if k < 12 else last
            out += [f"(assert (not {after}))", "(check-sat)", "(pop 1)"]
        return "\n".join(out) + "\n"
    for tag in PATHS:
        out.append("(push 1)")
        for loop, taken, cond in steps[tag][0]:
            # Loop test: can the loop exit here? can it go on?
            out += ["(push 1)", f"(assert (not {loop}))", "(check-sat)", "(pop 1)"]
            out += ["(push 1)", f"(assert {loop})", "(check-sat)", "(pop 1)"]
            out.append(f"(assert {loop})")
            # The if: both sides, then the path's side.
            out += ["(push 1)", f"(assert {cond})", "(check-sat)", "(pop 1)"]
            out += ["(push 1)", f"(assert (not {cond}))", "(check-sat)", "(pop 1)"]
            out.append(f"(assert {taken})")
        out.append("(pop 1)")
    return "\n".join(out) + "\n"


def run(fpsym, path, solver, extra, timeout):
    t0 = time.monotonic()
    p = subprocess.run([fpsym, "solve", "--solver", solver, "--timeout", str(timeout), "--stats", "json", *extra, path],
                       capture_output=True, text=True)
    sec = time.monotonic() - t0
    if p.returncode != 0:
        sys.exit(f"fpsym failed ({p.returncode}): {p.stderr.strip()}")
    answers = [l for l in p.stdout.split() if l in ("sat", "unsat", "unknown")]
    return sec, answers, p.stderr.strip().splitlines()[-1]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--fpsym", default=os.path.join(root, "target", "release", "fpsym"))
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--timeout", type=float, default=30)
    ap.add_argument("--solver", default="portfolio")
    ap.add_argument("--series", choices=["paths", "executor"], default="paths")
    ap.add_argument("--out", default=None)
    a = ap.parse_args()
    a.out = a.out or os.path.join(root, "target", "bench", f"dichotomic-{a.series}.smt2")
    os.makedirs(os.path.dirname(a.out), exist_ok=True)
    with open(a.out, "w") as fh:
        fh.write(script(a.series))
    configs = {"chain": [], "bare": ["--no-cache", "--no-independence"]}
    times = {k: [] for k in configs}
    answers = {}
    for r in range(a.repeat):
        for name, extra in configs.items():
            sec, ans, stats = run(a.fpsym, a.out, a.solver, extra, a.timeout)
            times[name].append(sec)
            answers.setdefault(name, ans)
            print(f"run {r + 1} {name:5s}: {sec:7.2f} s  {len(ans)} check-sats: "
                  f"{ans.count('sat')} sat, {ans.count('unsat')} unsat, {ans.count('unknown')} unknown", flush=True)
            if r == 0:
                print(f"  stats: {stats}")
    if answers["chain"] != answers["bare"]:
        diff = [i for i, (x, y) in enumerate(zip(answers["chain"], answers["bare"])) if x != y]
        print(f"note: answers differ at check-sats {diff} (unknowns in one configuration?)")
        for i in diff:
            if "unknown" not in (answers["chain"][i], answers["bare"][i]):
                sys.exit(f"check-sat {i}: chain says {answers['chain'][i]}, bare says {answers['bare'][i]}")
    mc, mb = statistics.median(times["chain"]), statistics.median(times["bare"])
    print(f"solver {a.solver}: median chain {mc:.2f} s, bare {mb:.2f} s, ratio chain/bare {mc / mb:.3f}")


if __name__ == "__main__":
    main()
