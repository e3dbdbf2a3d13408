#!/usr/bin/env python3
"""Proofs through loops (issue 34): `fpsym run --property unreach-call` on
loop programs, with the proof (`--prove auto`, the default: the abstract
interpretation, then k-induction; `--prove abstract` or `kinduction` for one
alone) and without it (`--prove none`: symbolic execution alone, the
baseline), in the same invocation.

Each program states its expected verdict (`// expect: true|false` in its
first lines, or a line `file<TAB>true|false` of EXPECTED.tsv beside the
programs). A `false` program's finding is confirmed natively (`fpsym replay
OUT`: the test reaches reach_error on the machine). Reported per program:
the verdict with and without the proof, the time, and the invariant.
Target: every true program proved within the time limit, every false one
found (and confirmed natively), none wrong.

    python3 bench/prove/run.py                          # bench/prove/programs, 60 s each
    python3 bench/prove/run.py --programs DIR --max-time 30
"""

import argparse
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def expected(prog: Path, table: dict) -> str:
    if prog.name in table:
        return table[prog.name]
    m = re.search(r"//\s*expect:\s*(true|false)", prog.read_text())
    return m.group(1) if m else "?"


def run(fpsym, prog, out, max_time, prove):
    cmd = [fpsym, "run", str(prog), "--property", "unreach-call", "--max-time", str(max_time),
           "--prove", prove, "-o", str(out), "--force"]
    t0 = time.monotonic()
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=max_time * 3 + 60)
    secs = time.monotonic() - t0
    text = r.stdout + r.stderr
    sv = re.findall(r"^sv-comp: (.*)$", text, re.M)
    verdict = re.findall(r"^verdict: (.*)$", text, re.M)
    res = {"sv": sv[-1] if sv else f"error (exit {r.returncode})", "seconds": secs,
           "verdict": verdict[-1] if verdict else text.strip().splitlines()[-1:] or ""}
    if res["sv"].startswith("false"):
        rp = subprocess.run([fpsym, "replay", str(out)], capture_output=True, text=True)
        m = re.search(r"(\d+) confirmed", rp.stdout + rp.stderr)
        # a test confirmed by replay, or the fuzzing phase's crash, which the
        # run confirms natively itself (the symbolic run may not reach it)
        res["confirmed"] = bool(m and int(m.group(1)) > 0) or "(found by fuzzing, confirmed natively" in text
    return res


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--fpsym", default=str(ROOT / "target/release/fpsym"))
    ap.add_argument("--programs", default=str(ROOT / "bench/prove/programs"))
    ap.add_argument("--max-time", type=float, default=60.0)
    ap.add_argument("--no-baseline", action="store_true", help="skip the --prove none runs")
    ap.add_argument("--prove", default="auto", choices=["auto", "abstract", "kinduction"],
                    help="how fpsym tries the proof (default: auto)")
    a = ap.parse_args()
    d = Path(a.programs)
    table = {}
    tsv = d / "EXPECTED.tsv"
    if tsv.exists():
        for line in tsv.read_text().splitlines():
            f = line.split("\t")
            if len(f) >= 2:
                table[f[0]] = f[1].strip()
    progs = sorted(p for p in d.glob("*.c") if not p.name.endswith(".driver.c"))
    if not progs:
        sys.exit(f"{d}: no programs")
    wrong = missed = 0
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for p in progs:
            exp = expected(p, table)
            got = run(a.fpsym, p, Path(tmp) / "out", a.max_time, a.prove)
            base = None if a.no_baseline else run(a.fpsym, p, Path(tmp) / "base", a.max_time, "none")
            ok_true = exp == "true" and got["sv"] == "true"
            ok_false = exp == "false" and got["sv"].startswith("false") and got.get("confirmed")
            if (exp == "true" and got["sv"].startswith("false")) or (exp == "false" and got["sv"] == "true"):
                wrong += 1
                mark = "WRONG"
            elif ok_true or ok_false:
                mark = "ok"
            else:
                missed += 1
                mark = "unknown"
            inv = got["verdict"] if "invariant" in str(got["verdict"]) or "induction" in str(got["verdict"]) else ""
            rows.append((p.name, exp, got["sv"], f"{got['seconds']:.1f}", base["sv"] if base else "-",
                         f"{base['seconds']:.1f}" if base else "-", mark, inv))
            print(f"{p.name:28} expect {exp:5} | prove: {got['sv']:19} {got['seconds']:6.1f} s | "
                  f"baseline: {(base['sv'] if base else '-'):19} {(base['seconds'] if base else 0):6.1f} s | {mark}"
                  + (f"\n    {inv}" if inv else ""), flush=True)
    n = len(rows)
    ok = sum(1 for r in rows if r[6] == "ok")
    base_ok = sum(1 for r in rows if (r[1] == "true" and r[4] == "true") or (r[1] == "false" and r[4].startswith("false")))
    print(f"\n{ok}/{n} right with the proof ({wrong} wrong, {missed} unknown); "
          f"{base_ok}/{n} right by symbolic execution alone")
    sys.exit(1 if wrong else 0)


if __name__ == "__main__":
    main()
