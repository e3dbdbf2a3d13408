#!/usr/bin/env python3
"""Check the programs written by make_programs.py.

For each program of DIR/programs.json (default
target/bench/upstream/programs):

1. native: the program compiled (clang-14 -O0 -std=gnu11, no extra
   library) with a small driver that calls prog on --trials random float
   inputs in [-100, 100] must run to the end without crashing; the driver
   counts non-finite results and compares each result with the hand-written
   program of bench/error/programs (seed_program_file, inputs passed as
   double), reporting the share of trials whose outputs are bit-identical
   (informative only: LU differs by design, GSL accumulates in long double);
2. fpsym (unless --no-fpsym): `fpsym error FILE --function prog
   --array-len N --range 'P=[-100,100]'... --output ret|out --max-time T
   --metric fpgen --no-replay -o DIR/check/STEM --force` must exit 0, 1 or 4
   and write error.json; its max error is reported, else its message.

Writes DIR/check/summary.json and summary.md and prints a table.

    python3 bench/error/upstream/check.py                 # 10 s of fpsym per program
    python3 bench/error/upstream/check.py --time 30 --only m_lu,wskew
    python3 bench/error/upstream/check.py --no-fpsym
"""

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]

DRIVER = r"""
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LEN @LEN@
#define NOUT @NOUT@
@PROTOS@

static unsigned long long rng = 0x9e3779b97f4a7c15ULL;
static double uniform(void)
{
    rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
    return (double)(rng >> 11) / 9007199254740992.0;
}

static float rand_float(void)
{
    /* a float in [-100, 100]: uniform, or with a random exponent */
    double u = uniform();
    double v = uniform() < 0.5 ? -200.0 * u + 100.0 : ldexp(1.0, -(int)(uniform() * 60)) * (2.0 * u - 1.0) * 100.0;
    return (float)v;
}

static int same(double a, double b) { return memcmp(&a, &b, sizeof a) == 0 || (isnan(a) && isnan(b)); }

int main(int argc, char **argv)
{
    long trials = argc > 1 ? atol(argv[1]) : 100000, t, nonfinite = 0, agree = 0;
    int i, k;
    float @FDECL@;
    double @DDECL@;
    double r1[NOUT], r2[NOUT];

    for (t = 0; t < trials; t++) {
        int ok = 1;
        for (i = 0; i < LEN; i++) {
@FILL@
        }
@CALL@
        for (k = 0; k < NOUT; k++) {
            if (!isfinite(r1[k]))
                nonfinite++;
            if (!same(r1[k], r2[k]))
                ok = 0;
        }
        agree += ok;
    }
    printf("%ld %ld %ld\n", trials, nonfinite, agree);
    return 0;
}
"""


def driver_source(prog):
    ins = [p["name"] for p in prog["params"] if p["role"] == "input"]
    ret = prog["output"] == "ret"
    n = prog["array_len"]
    fdecl = ", ".join(f"{x}[LEN]" for x in ins)
    ddecl = ", ".join([f"{x}_d[LEN]" for x in ins] + ["out1[LEN]", "out2[LEN]"])
    fill = "\n".join(f"            {x}[i] = rand_float(); {x}_d[i] = {x}[i];" for x in ins)
    fargs = ", ".join(f"const float *" for _ in ins)
    dargs = ", ".join(f"const double *" for _ in ins)
    fcall = ", ".join(ins)
    dcall = ", ".join(f"{x}_d" for x in ins)
    if ret:
        protos = f"double prog({fargs});\ndouble rewrite_prog({dargs});"
        call = f"        r1[0] = prog({fcall});\n        r2[0] = rewrite_prog({dcall});"
    else:
        protos = f"void prog({fargs}, double *);\nvoid rewrite_prog({dargs}, double *);"
        call = (f"        prog({fcall}, out1);\n        rewrite_prog({dcall}, out2);\n"
                f"        for (k = 0; k < NOUT; k++) {{ r1[k] = out1[k]; r2[k] = out2[k]; }}")
    return (DRIVER.replace("@LEN@", str(n)).replace("@NOUT@", str(prog["outputs"]))
            .replace("@PROTOS@", protos).replace("@FDECL@", fdecl).replace("@DDECL@", ddecl)
            .replace("@FILL@", fill).replace("@CALL@", call))


def native(prog, trials, tmp):
    stem = Path(prog["file"]).stem
    d = Path(tmp)
    (d / f"{stem}_driver.c").write_text(driver_source(prog))
    exe = d / f"{stem}_driver"
    objs = []
    for src, extra in [(ROOT / prog["file"], []), (ROOT / prog["seed_program_file"], ["-Dprog=rewrite_prog"]),
                       (d / f"{stem}_driver.c", [])]:
        o = d / (src.stem + ("_rw" if extra else "") + ".o")
        r = subprocess.run(["clang-14", "-c", "-O0", "-std=gnu11", *extra, str(src), "-o", str(o)],
                           capture_output=True, text=True)
        if r.returncode != 0 or r.stderr.strip():
            return {"ok": False, "message": f"compile {src.name}: {(r.stderr or '').strip()[:800]}"}
        objs.append(str(o))
    r = subprocess.run(["clang-14", *objs, "-lm", "-o", str(exe)], capture_output=True, text=True)
    if r.returncode != 0:
        return {"ok": False, "message": f"link: {r.stderr.strip()[:800]}"}
    r = subprocess.run([str(exe), str(trials)], capture_output=True, text=True, timeout=600)
    if r.returncode != 0:
        return {"ok": False, "message": f"driver exit {r.returncode}: {r.stderr.strip()[:400]}"}
    t, nonfinite, agree = map(int, r.stdout.split())
    return {"ok": True, "trials": t, "nonfinite_outputs": nonfinite, "identical_to_rewrite": agree / t}


def run_fpsym(fpsym, prog, seconds, out):
    d = out / Path(prog["file"]).stem
    cmd = [fpsym, "error", str(ROOT / prog["file"]), "--function", prog["function"],
           "--array-len", str(prog["array_len"])]
    for p in prog["params"]:
        if p["role"] == "input":
            cmd += ["--range", f"{p['name']}=[-100,100]"]
    cmd += ["--output", prog["output"], "--max-time", str(seconds), "--metric", "fpgen", "--no-replay",
            "-o", str(d), "--force"]
    t0 = time.monotonic()
    r = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.monotonic() - t0
    res = {"exit": r.returncode, "wall": round(wall, 1), "command": " ".join(cmd)}
    try:
        j = json.loads((d / "error.json").read_text())
    except (OSError, ValueError):
        res["ok"] = False
        res["message"] = (r.stderr.strip() or r.stdout.strip())[-1500:]
        return res
    e = j.get("max_error", j.get("max_relative_error"))
    res.update(ok=r.returncode in (0, 1, 4), error=e, time_to_best=j.get("time_to_best"),
               measured=j.get("measured"), rounds=j.get("symbolic_rounds"),
               inputs=[f"{x['name']} = {x['decimal']}" for x in j.get("inputs", [])])
    if not res["ok"]:
        res["message"] = (r.stderr.strip() or r.stdout.strip())[-1500:]
    return res


def fmt(e):
    if e is None:
        return "-"
    if isinstance(e, str):
        return e
    return f"{e:.4e}"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dir", default=str(ROOT / "target/bench/upstream/programs"))
    ap.add_argument("--fpsym", default=str(ROOT / "target/release/fpsym"))
    ap.add_argument("--time", type=float, default=10.0, help="fpsym --max-time per program")
    ap.add_argument("--trials", type=int, default=100000, help="native random trials per program")
    ap.add_argument("--only", default="", help="comma-separated file stems")
    ap.add_argument("--no-fpsym", action="store_true")
    a = ap.parse_args()
    d = Path(a.dir)
    spec = json.loads((d / "programs.json").read_text())
    out = d / "check"
    out.mkdir(exist_ok=True)
    only = {s for s in a.only.split(",") if s}
    if not a.no_fpsym and not Path(a.fpsym).exists():
        sys.exit(f"{a.fpsym}: not built")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for prog in spec["programs"]:
            stem = Path(prog["file"]).stem
            if only and stem not in only:
                continue
            nat = native(prog, a.trials, tmp)
            fp = None if a.no_fpsym else run_fpsym(a.fpsym, prog, a.time, out)
            row = {"program": prog["name"], "file": stem, "native": nat, "fpsym": fp,
                   "seed_fpgen": prog["seed"]["fpgen"]["rel_error"]}
            rows.append(row)
            ntxt = (f"ok, {nat['identical_to_rewrite']:.0%} identical to rewrite, "
                    f"{nat['nonfinite_outputs']} non-finite" if nat["ok"] else "FAILED: " + nat["message"])
            ftxt = "not run" if fp is None else (
                f"exit {fp['exit']}, error {fmt(fp.get('error'))}" if fp["ok"]
                else f"FAILED (exit {fp['exit']}): {fp.get('message', '')[-300:]}")
            print(f"{stem:14} native {ntxt:50} fpsym {ftxt}  | seed FPGen {fmt(row['seed_fpgen'])}", flush=True)
    lines = [f"# upstream programs: native check ({a.trials} random trials) and fpsym error "
             f"({a.time:g} s, --metric fpgen)", "",
             "| program | file | native | identical to rewrite | fpsym exit | fpsym error | seed FPGen (2 h) |",
             "|---|---|---|---|---|---|---|"]
    for x in rows:
        n, f = x["native"], x["fpsym"]
        lines.append(f"| {x['program']} | {x['file']} | {'ok' if n['ok'] else 'FAILED'} | "
                     f"{n.get('identical_to_rewrite', 0):.0%} | {f['exit'] if f else '-'} | "
                     f"{(fmt(f.get('error')) if f['ok'] else 'FAILED') if f else '-'} | {fmt(x['seed_fpgen'])} |")
    (out / "summary.md").write_text("\n".join(lines) + "\n")
    (out / "summary.json").write_text(json.dumps(rows, indent=1) + "\n")
    print(f"written: {out / 'summary.md'}")
    bad = [x["file"] for x in rows if not x["native"]["ok"] or (x["fpsym"] and not x["fpsym"]["ok"])]
    if bad:
        print("failed: " + ", ".join(bad))
        sys.exit(1)


if __name__ == "__main__":
    main()
