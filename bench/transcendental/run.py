#!/usr/bin/env python3
"""Targets behind glibc's transcendental functions (issue 14),
bench/transcendental/programs/programs.json.

For each program: `fpsym run FILE --function F --replay` with
`--libm symbolic` (the call's value a symbolic term, the cp solver's
enclosures, models checked against glibc) and with `--libm concretize`
(the old behaviour: one native sample of the arguments), in the same
invocation. Per mode: the outcome, the run's seconds (stats.json: the
compile and the replay excluded) and the wall time of the whole command.

    found    a finding, confirmed by native replay
    proved   verdict `verified`: no input reaches a failure
    unknown  neither (incomplete: a time limit, a concretized call, ...)
    WRONG    a finding replay does not confirm, or the opposite of the
             program's true answer (`expect` in programs.json): a bug to report

Target: with --libm symbolic every program found or proved as expected;
with --libm concretize nothing is ever proved.

    python3 bench/transcendental/run.py
    python3 bench/transcendental/run.py --max-time 30 --only sin_peak,tiny_log

Writes target/bench/transcendental/summary.json.
"""

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROGRAMS = ROOT / "bench/transcendental/programs"
MODES = ["symbolic", "concretize"]


def one(fpsym, prog, mode, max_time, out):
    cmd = [fpsym, "run", str(PROGRAMS / prog["file"]), "--function", prog["function"],
           "--libm", mode, "--max-time", str(max_time), "--replay", "-o", str(out), "--force"]
    for name, rng in prog.get("ranges", {}).items():
        cmd += ["--range", f"{name}={rng}"]
    cmd += prog.get("flags", [])
    t = time.monotonic()
    r = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.monotonic() - t
    try:
        s = json.loads((out / "stats.json").read_text())
    except (OSError, ValueError):
        return {"outcome": "failed", "seconds": None, "wall": wall, "message": (r.stdout + r.stderr)[-500:]}
    verdict = s["verdict"]["verdict"]
    findings = []
    fdir = out / "findings"
    if fdir.is_dir():
        findings = [json.loads(f.read_text()) for f in sorted(fdir.iterdir())]
    try:
        replay = json.loads((out / "replay.json").read_text())
        confirmed = [f.get("confirmed") for f in replay.get("findings", [])]
    except (OSError, ValueError):
        confirmed = []
    concretized = False
    ev = out / "events.jsonl"
    if ev.exists():
        concretized = any('"concretized"' in l for l in ev.read_text().splitlines())
    if findings:
        outcome = "found" if confirmed and all(c is True for c in confirmed) else "WRONG"
    elif verdict == "verified":
        outcome = "proved"
    else:
        outcome = "unknown"
    if outcome in ("found", "proved") and outcome != prog["expect"]:
        outcome = "WRONG"
    return {
        "outcome": outcome,
        "verdict": verdict,
        "seconds": s["stats"].get("seconds"),
        "wall": wall,
        "findings": [(f.get("kind"), f.get("line")) for f in findings],
        "confirmed": confirmed,
        "concretized": concretized,
        "why": s["verdict"].get("reason") or s["verdict"].get("why"),
    }


def cell(r):
    secs = r["seconds"] if r["seconds"] is not None else float("nan")
    return f"{r['outcome']:8} {secs:7.2f} s ({r['wall']:5.1f} s wall)"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--fpsym", default=str(ROOT / "target/release/fpsym"))
    ap.add_argument("--max-time", type=float, default=60.0, help="--max-time of each run (default 60)")
    ap.add_argument("--only", default="", help="comma-separated program names")
    ap.add_argument("--out", default=str(ROOT / "target/bench/transcendental"))
    a = ap.parse_args()
    if not Path(a.fpsym).exists():
        sys.exit(f"{a.fpsym}: not built (cargo build --release --bin fpsym)")
    spec = json.loads((PROGRAMS / "programs.json").read_text())
    only = {n for n in a.only.split(",") if n}
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    rows = []
    print(f"{'program':18} {'expect':7} | {'--libm symbolic':33} | {'--libm concretize':33}")
    print("-" * 98)
    for prog in spec["programs"]:
        if only and prog["name"] not in only:
            continue
        res = {m: one(a.fpsym, prog, m, a.max_time, out / f"{prog['name']}-{m}") for m in MODES}
        rows.append({"program": prog["name"], "file": prog["file"], "function": prog["function"],
                     "expect": prog["expect"], **res})
        print(f"{prog['name']:18} {prog['expect']:7} | {cell(res['symbolic'])} | {cell(res['concretize'])}", flush=True)
    print("-" * 98)
    totals = {}
    for m in MODES:
        t = {k: sum(1 for r in rows if r[m]["outcome"] == k) for k in ("found", "proved", "unknown", "WRONG", "failed")}
        t["seconds"] = round(sum(r[m]["seconds"] or 0 for r in rows), 2)
        totals[m] = t
        print(f"--libm {m:10}: {t['found']} found, {t['proved']} proved, {t['unknown']} unknown, "
              f"{t['WRONG']} wrong, {t['failed']} failed of {len(rows)}; {t['seconds']} s in runs")
    (out / "summary.json").write_text(json.dumps({"max_time": a.max_time, "programs": rows, "totals": totals},
                                                 indent=1) + "\n")
    print(f"summary: {out / 'summary.json'}")
    if any(r[m]["outcome"] in ("WRONG", "failed") for r in rows for m in MODES):
        sys.exit(1)


if __name__ == "__main__":
    main()
