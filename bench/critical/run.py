#!/usr/bin/env python3
"""Seed 001's critical-value queries under `fpsym critical`
(bench/critical/programs/critical.json).

For each program and each distinct `--expect` range of its queries:
`fpsym critical` with each backend of --solvers (cp, z3, cvc5 as a
process, the cp+z3 portfolio in parallel), all in the same invocation;
per query (a side of the range) the answer (sat with the result, unsat,
unknown) and the run's seconds, against the paper's answer and the
native check recorded in critical.json. Target: every query decided.
Per program, the float range fpsym finds by interval propagation (the
hull over the paths of each path's enclosure of the result) beside the
seed's value-analysis range (Fluctuat / rAiCp) and the native extremes
recorded in critical.json; programs without queries get their float
range with the real range computed here.

    python3 bench/critical/run.py
    python3 bench/critical/run.py --solvers cp,portfolio --max-time 60
"""

import argparse
import json
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BACKENDS = {
    "cp": ["--solver", "cp"],
    "z3": ["--solver", "z3"],
    "cvc5": ["--solver", "process:cvc5 --lang smt2"],
    "portfolio": ["--portfolio", "parallel"],
}


def run(fpsym, prog, expect, backend, max_time, timeout, out):
    cmd = [fpsym, "critical", str(ROOT / "bench/critical/programs" / prog["file"]), "--function", prog["function"],
           "--expect", expect, "--max-time", str(max_time), "--solver-timeout", str(timeout),
           "-o", str(out), "--force"] + BACKENDS[backend]
    for i in prog["inputs"]:
        lo, hi = i["range"]
        cmd += ["--range", f"{i['name']}=[{lo},{hi}]"]
    r = subprocess.run(cmd, capture_output=True, text=True)
    try:
        c = json.loads((out / "critical.json").read_text())
        s = json.loads((out / "stats.json").read_text())
    except (OSError, ValueError):
        return None, None, (r.stdout + r.stderr)[-400:]
    return c, s["stats"]["seconds"], None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--fpsym", default=str(ROOT / "target/release/fpsym"))
    ap.add_argument("--solvers", default="cp,z3,cvc5,portfolio")
    ap.add_argument("--max-time", type=float, default=60.0)
    ap.add_argument("--solver-timeout", type=float, default=30.0)
    ap.add_argument("--out", default=str(ROOT / "target/bench/critical"))
    a = ap.parse_args()
    if not Path(a.fpsym).exists():
        sys.exit(f"{a.fpsym}: not built (cargo build --release)")
    backends = [b for b in a.solvers.split(",") if b]
    if "cvc5" in backends and not shutil.which("cvc5"):
        sys.exit("cvc5 is not installed (scripts/bootstrap installs it)")
    spec = json.loads((ROOT / "bench/critical/programs/critical.json").read_text())
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    rows = []
    ranges = []
    for name, prog in spec["programs"].items():
        by_expect = {}
        for q in prog["queries"]:
            by_expect.setdefault(q["expect"], []).append(q)
        real = (prog.get("computed_here") or {}).get("real_range")
        if not by_expect and real:
            # Only the float range is read: a bound written with "..." is cut there.
            lo, hi = (r.rstrip(".") for r in real)
            by_expect[f"ret=[{lo},{hi}]"] = []
        for expect, queries in by_expect.items():
            results = {b: run(a.fpsym, prog, expect, b, a.max_time, a.solver_timeout, out / f"{name}-{b}") for b in backends}
            for b in backends:
                c = results[b][0]
                fr = (c or {}).get("float_range") or {}
                seed = prog.get("float_range_value_analysis")
                native = prog.get("native_float_range") or (prog.get("computed_here") or {}).get("native_float_range")
                if isinstance(native, dict):
                    native = [native.get("min"), native.get("max")]
                row = {"program": name, "expect": expect, "backend": b, "float_range": fr,
                       "seed_value_analysis": seed, "native": native}
                ranges.append(row)
                every = "every path" if fr.get("every_path") else f"not every path: {fr.get('why')}"
                print(f"{name:22} {b:9} float range [{fr.get('lo')}, {fr.get('hi')}] ({every}) | "
                      f"seed value analysis {seed} | native {native}", flush=True)
            for q in queries:
                side = "below" if "low" in q["id"] else "above"
                row = {"query": q["id"], "interval": q["interval"]["text"], "paper": q["paper"].get("answer"),
                       "native": (q.get("native_check") or {}).get("answer")}
                cells = []
                for b in backends:
                    c, secs, err = results[b]
                    ans = c[side]["answer"] if c else "failed"
                    res = c[side].get("result") if c else None
                    row[b] = {"answer": ans, "result": res, "seconds": secs, "error": err}
                    cells.append(f"{b} {ans:>7}{'' if res is None else ' ' + res:14} {secs or 0:6.2f} s")
                rows.append(row)
                print(f"{q['id']:22} {' | '.join(cells)} | paper {row['paper']}, native {row['native']}", flush=True)
    decided = {b: sum(1 for r in rows if r[b]["answer"] in ("sat", "unsat")) for b in backends}
    print("decided: " + ", ".join(f"{b} {n}/{len(rows)}" for b, n in decided.items()))
    (out / "summary.json").write_text(json.dumps({"queries": rows, "float_ranges": ranges}, indent=1) + "\n")


if __name__ == "__main__":
    main()
