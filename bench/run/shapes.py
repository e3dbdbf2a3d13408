#!/usr/bin/env python3
"""Search power on the shapes of the KLEE-Float suites (issue: search power).

Runs `fpsym run FILE --property unreach-call --max-time T` on every program
of bench/run/shapes/programs.json (held-out programs with known verdicts:
sorting networks, bisection and Newton square roots, fmod reductions,
decimal parsing, limb arithmetic, BLAS loops), JOBS at a time, and prints
per program: the expected verdict, fpsym's (bug found / verified /
incomplete, with why it stopped), whether it is right, and the time.
A wrong answer (a bug on a safe program, "verified" on a buggy one) is
marked WRONG and makes the script exit 1.

    python3 bench/run/shapes.py                 # 60 s each, 2 jobs
    python3 bench/run/shapes.py --time 20 --only sort_net4_float,fmod_angle_bug
"""
import argparse, concurrent.futures, json, os, subprocess, sys, tempfile, time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent / "shapes"


def run_one(fpsym, prog, seconds, out, extra):
    d = out / Path(prog["file"]).stem
    cmd = [fpsym, "run", str(HERE / prog["file"]), "--property", "unreach-call",
           "--max-time", str(seconds), "-o", str(d), "--force"] + extra
    t0 = time.monotonic()
    p = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.monotonic() - t0
    verdict = next((l.split(":", 1)[1].strip() for l in p.stdout.splitlines() if l.startswith("verdict:")), "")
    try:
        stats = json.loads((d / "stats.json").read_text())
    except (OSError, ValueError):
        stats = {}
    code = p.returncode
    got = {1: "bug", 0: "safe"}.get(code, "incomplete" if code == 4 else f"exit {code}")
    dropped = [l.strip() for l in p.stdout.splitlines() if "dropped" in l or "undecided" in l][:2]
    return {"file": prog["file"], "shape": prog["shape"], "expect": prog["expect"], "got": got,
            "verdict": verdict, "wall": wall, "stop": stats.get("stop", ""),
            "queries": stats.get("stats", {}).get("queries"), "why": dropped,
            "tail": (p.stdout + p.stderr)[-600:] if code not in (0, 1, 4) else ""}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--fpsym", default=str(ROOT / "target/release/fpsym"))
    ap.add_argument("--time", type=float, default=60.0)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--only", default="")
    ap.add_argument("--out", default=str(ROOT / "target/bench/shapes"))
    ap.add_argument("--fpsym-arg", action="append", default=[])
    a = ap.parse_args()
    progs = json.loads((HERE / "programs.json").read_text())
    if a.only:
        keep = set(a.only.split(","))
        progs = [p for p in progs if Path(p["file"]).stem in keep]
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as ex:
        rows = list(ex.map(lambda p: run_one(a.fpsym, p, a.time, out, a.fpsym_arg), progs))
    wrong = 0
    decided = 0
    print(f"{'program':28} {'shape':8} {'expect':6} {'fpsym':11} {'ok':5} {'time':>6}  why it stopped")
    for r in rows:
        ok = r["got"] == r["expect"]
        bad = (r["got"] == "bug" and r["expect"] == "safe") or (r["got"] == "safe" and r["expect"] == "bug")
        wrong += bad
        decided += ok
        mark = "yes" if ok else ("WRONG" if bad else "-")
        why = "" if ok else (r["verdict"] + (" | " + "; ".join(r["why"]) if r["why"] else "") + r["tail"])
        print(f"{Path(r['file']).stem:28} {r['shape']:8} {r['expect']:6} {r['got']:11} {mark:5} {r['wall']:6.1f}  {why[:160]}")
    bugs = [r for r in rows if r["expect"] == "bug"]
    safe = [r for r in rows if r["expect"] == "safe"]
    print(f"\nbugs found: {sum(r['got'] == 'bug' for r in bugs)}/{len(bugs)}; "
          f"safe programs verified (fully explored): {sum(r['got'] == 'safe' for r in safe)}/{len(safe)}; "
          f"wrong answers: {wrong}; {a.time:.0f} s each, {a.jobs} jobs")
    (out / "summary.json").write_text(json.dumps(rows, indent=1))
    sys.exit(1 if wrong else 0)


if __name__ == "__main__":
    main()
