#!/usr/bin/env python3
"""Seed 000's dichotomic paths under `fpsym path` (bench/path/programs/).

For each path of paths.json's dichotomic entry (the 12 prefixes of the
concrete run from (-10, 10), as FPSE's Table II, and the 12 complete
all-then paths that leave the loop): `fpsym path --path SPEC` with the cp
solver and with Z3, in the same invocation; the answer and the run's own
seconds (stats.json, without the compile), against the paper's FPSE
times with and without ULP-Max. Target: every path answered under 1 s.

    python3 bench/path/run.py                 # cp and z3, 30 s per path at most
    python3 bench/path/run.py --solvers cp --max-time 10

`--tcas N` adds seed 000's Table III experiment on the tcas
reconstruction: `fpsym path --all-paths` (cp) with nb_acs in [2, 2+K] for
K = 0..N (the paths of at most K iterations of the main loop; sines and
cosines as free inputs; 2 s per query, retried up to 32 s), every path
with its verdict and cp's time alone
with and without ULP-Max; reported against the paper's figures (about 130
paths at 5 iterations, 51 % infeasible, ULP-Max acting on 27 of the
feasible paths, 0.027 to 3.7 s per path).

    python3 bench/path/run.py --solvers cp --tcas 1     # about 8 min for tcas
"""

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def one(fpsym, prog, spec, solver, max_time, out):
    cmd = [fpsym, "path", str(ROOT / "bench/path/programs" / prog["file"]), "--function", prog["function"],
           "--path", spec, "--solver", solver, "--max-time", str(max_time), "-o", str(out), "--force"]
    r = subprocess.run(cmd, capture_output=True, text=True)
    try:
        s = json.loads((out / "stats.json").read_text())
    except (OSError, ValueError):
        return {"verdict": "failed", "seconds": None, "message": (r.stdout + r.stderr)[-500:]}
    return {"verdict": s["verdict"]["verdict"], "seconds": s["stats"]["seconds"]}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--fpsym", default=str(ROOT / "target/release/fpsym"))
    ap.add_argument("--solvers", default="cp,z3")
    ap.add_argument("--max-time", type=float, default=30.0)
    ap.add_argument("--out", default=str(ROOT / "target/bench/path"))
    ap.add_argument("--tcas", type=int, default=None, metavar="N",
                    help="also tcas --all-paths for 0..N main-loop iterations")
    ap.add_argument("--tcas-time", type=float, default=1800.0, help="--max-time of each tcas run")
    a = ap.parse_args()
    if not Path(a.fpsym).exists():
        sys.exit(f"{a.fpsym}: not built (cargo build --release)")
    spec = json.loads((ROOT / "bench/path/programs/paths.json").read_text())
    prog = spec["programs"]["dichotomic"]
    solvers = [s for s in a.solvers.split(",") if s]
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    rows = []
    paths = [("prefix", p["k"], p["path"] + ",...", p.get("paper_table_II")) for p in prog["prefixes"]]
    paths += [("exit", p["k"], p["path"], None) for p in prog["exit_paths"]]
    for kind, k, path, paper in paths:
        row = {"kind": kind, "k": k, "path": path}
        for s in solvers:
            row[s] = one(a.fpsym, prog, path, s, a.max_time, out / f"{kind}{k}-{s}")
        if paper:
            row["fpse_without_ulpmax"] = paper.get("time_without_ulpmax_s")
            row["fpse_with_ulpmax"] = paper.get("time_with_ulpmax_s")
        rows.append(row)
        cells = "  ".join(f"{s} {row[s]['verdict']:>10} {row[s]['seconds'] or 0:7.3f} s" for s in solvers)
        fpse = ""
        if paper:
            w = lambda x: "timeout" if x is None else f"{x:.3f} s"
            fpse = f"  | FPSE {w(paper.get('time_without_ulpmax_s'))} / ULP-Max {w(paper.get('time_with_ulpmax_s'))}"
        print(f"{kind:6} {k:2}  {cells}{fpse}", flush=True)
    first = solvers[0]
    answered = [r for r in rows if r[first]["verdict"] in ("feasible", "infeasible")]
    under = [r for r in answered if (r[first]["seconds"] or 1e9) < 1.0]
    worst = max((r[first]["seconds"] or 0) for r in rows)
    lines = [f"{len(answered)} of {len(rows)} paths answered with {first}; {len(under)} under 1 s; slowest {worst:.3f} s"]
    for s in solvers[1:]:
        tot = lambda x: sum((r[x]["seconds"] or 0) for r in rows)
        lines.append(f"total seconds {first} {tot(first):.2f}, {s} {tot(s):.2f} (ratio {tot(s) / max(tot(first), 1e-9):.1f})")
    print("\n".join(lines))
    (out / "summary.json").write_text(json.dumps(rows, indent=1) + "\n")
    if a.tcas is not None:
        tcas(a.fpsym, spec["programs"]["tcas"], a.tcas, a.tcas_time, out)


def quantiles(xs):
    xs = sorted(xs)
    if not xs:
        return "-"
    return f"{xs[0]:.3f} / {xs[len(xs) // 2]:.3f} / {xs[-1]:.3f}"


def tcas(fpsym, prog, most, max_time, out):
    """--all-paths on tcas, nb_acs in [2, 2+K] for K = 0..most."""
    print("\ntcas --all-paths (cp; per path: min / median / max seconds of cp alone)")
    rows = []
    for k in range(most + 1):
        d = out / f"tcas-all-{k}"
        cmd = [fpsym, "path", str(ROOT / "bench/path/programs" / prog["file"]), "--function", prog["function"],
               "--array-len", "7", "--range", f"nb_acs=[2,{2 + k}]", "-D", "TCAS_TRIG_AS_INPUTS", "--all-paths",
               "--solver", "cp", "--solver-timeout", "2", "--max-time", str(max_time), "-o", str(d), "--force"]
        r = subprocess.run(cmd, capture_output=True, text=True)
        try:
            j = json.loads((d / "paths.json").read_text())
        except (OSError, ValueError):
            print(f"K={k}: failed\n{(r.stdout + r.stderr)[-400:]}")
            continue
        paths = j["paths"]
        n = len(paths)
        feas = [p for p in paths if p["verdict"] == "feasible"]
        acted = [p for p in feas if p["with_ulp_max"] and p["with_ulp_max"]["ulp_max_pruned"] > 0]
        w = [p["with_ulp_max"]["seconds"] for p in acted if p["with_ulp_max"]["result"] == "sat"]
        wo = [p["without_ulp_max"]["seconds"] for p in acted if p["without_ulp_max"]["result"] == "sat"]
        faster = sum(1 for p in acted if p["without_ulp_max"] and p["with_ulp_max"]["seconds"] < p["without_ulp_max"]["seconds"])
        undecided = {s: sum(1 for p in paths if p[s] and p[s]["result"] == "unknown") for s in ("with_ulp_max", "without_ulp_max")}
        row = {"iterations": k, "paths": n, "feasible": j["feasible"], "infeasible": j["infeasible"],
               "unknown": j["unknown"], "complete": j["complete"], "stop": j["stop"], "ulp_max_acts_on": len(acted),
               "ulp_max_faster_on": faster, "cp_unknown": undecided}
        rows.append(row)
        print(f"K={k}: {n} paths, {j['feasible']} feasible, {j['infeasible']} infeasible "
              f"({100.0 * j['infeasible'] / max(n, 1):.0f}%), {j['unknown']} unknown"
              f"{'' if j['complete'] else ' (run stopped early: ' + j['stop'] + ')'}; "
              f"ULP-Max acts on {len(acted)} feasible paths, faster on {faster}; "
              f"times with {quantiles(w)} s, without {quantiles(wo)} s; cp alone undecided "
              f"{undecided['with_ulp_max']} with / {undecided['without_ulp_max']} without ULP-Max", flush=True)
    print("paper (Table III, 5 iterations): about 130 paths, 51% infeasible, ULP-Max acts on 27, "
          "0.027 to 3.7 s per path, faster on 18 of 27")
    (out / "tcas-summary.json").write_text(json.dumps(rows, indent=1) + "\n")


if __name__ == "__main__":
    main()
