#!/usr/bin/env python3
"""Run `fpsym solve` with one or more backends over an SMT-LIB corpus.

Prints, per backend: sat / unsat / unknown / error counts, wrong answers
against the labels, solved count, total and median time, PAR-2; and pairwise
median time ratios on files both backends solve (ratios from the same run, so
machine noise affects both sides alike). Writes one CSV row per (backend, file).

Usage: bench/solve_corpus.py [--solvers z3,cp] [--timeout 10] [--corpus DIR]
                             [--labels FILE] [--csv OUT] [--fpsym BIN] [--jobs N]
"""
import argparse, csv, os, re, statistics, subprocess, sys, time
from concurrent.futures import ThreadPoolExecutor

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(here)
default_corpus = os.environ.get("FPSYM_CORPUS", os.path.join(root, "..", "shared", "bench", "smtlib", "qf_fp"))


def load_labels(path):
    labels = {}
    if not path or not os.path.exists(path):
        return labels
    bench = None
    for line in open(path):
        m = re.match(r"\s*-?\s*benchmark:\s*(\S+)", line)
        if m:
            bench = m.group(1)
            continue
        m = re.match(r"\s*expected_sat:\s*(\S+)", line)
        if m and bench:
            labels[bench.split("/", 1)[1] if bench.startswith("QF_FP/") else bench] = m.group(1)
    return labels


def file_label(path):
    with open(path, errors="replace") as f:
        for line in f:
            m = re.search(r"\(set-info :status (sat|unsat)\)|; expect: (sat|unsat)", line)
            if m:
                return m.group(1) or m.group(2)
    return None


def run_one(fpsym, solver, timeout, path):
    t0 = time.monotonic()
    try:
        p = subprocess.run([fpsym, "solve", "--solver", solver, "--timeout", str(timeout), path],
                           capture_output=True, text=True, timeout=timeout * 2 + 10)
        out, code = p.stdout.split(), p.returncode
        answer = out[0] if code == 0 and out else ("error" if code != 0 else "unknown")
        err = p.stderr.strip().splitlines()[-1] if p.stderr.strip() else ""
    except subprocess.TimeoutExpired:
        answer, code, err = "killed", -1, "exceeded twice the timeout"
    return answer, time.monotonic() - t0, err


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--solvers", default="z3")
    ap.add_argument("--timeout", type=float, default=10)
    ap.add_argument("--corpus", default=default_corpus)
    ap.add_argument("--labels", default=None)
    ap.add_argument("--csv", default=os.path.join(root, "target", "bench-solve.csv"))
    ap.add_argument("--fpsym", default=os.path.join(root, "target", "release", "fpsym"))
    ap.add_argument("--jobs", type=int, default=1)
    a = ap.parse_args()
    corpus = os.path.abspath(a.corpus)
    if not os.path.isdir(corpus):
        print(f"corpus {corpus} not found; set FPSYM_CORPUS", file=sys.stderr)
        return 2
    labels_path = a.labels or os.path.join(os.path.dirname(corpus), "qf_fp_labels.yml")
    labels = load_labels(labels_path)
    files = sorted(os.path.relpath(os.path.join(d, f), corpus)
                   for d, _, fs in os.walk(corpus) for f in fs if f.endswith(".smt2"))
    solvers = a.solvers.split(",")
    results = {}
    os.makedirs(os.path.dirname(a.csv), exist_ok=True)
    with open(a.csv, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["solver", "file", "answer", "expected", "seconds", "stderr"])
        for s in solvers:
            with ThreadPoolExecutor(max_workers=a.jobs) as ex:
                outs = list(ex.map(lambda f: run_one(a.fpsym, s, a.timeout, os.path.join(corpus, f)), files))
            for f, (ans, sec, err) in zip(files, outs):
                exp = labels.get(f) or file_label(os.path.join(corpus, f))
                results[(s, f)] = (ans, sec, exp)
                w.writerow([s, f, ans, exp or "", f"{sec:.3f}", err])
    print(f"corpus: {corpus} ({len(files)} files), timeout {a.timeout:g}s, jobs {a.jobs}")
    print(f"{'solver':<12}{'sat':>5}{'unsat':>6}{'unkn':>6}{'err':>5}{'wrong':>6}{'solved':>7}{'total s':>9}{'median s':>9}{'PAR-2':>9}")
    solved = {}
    for s in solvers:
        rs = [results[(s, f)] for f in files]
        cnt = lambda k: sum(1 for r in rs if r[0] == k)
        wrong = sum(1 for r in rs if r[0] in ("sat", "unsat") and r[2] in ("sat", "unsat") and r[0] != r[2])
        ok = [f for f in files if results[(s, f)][0] in ("sat", "unsat")
              and not (results[(s, f)][2] in ("sat", "unsat") and results[(s, f)][0] != results[(s, f)][2])]
        solved[s] = ok
        times = [results[(s, f)][1] for f in ok]
        par2 = sum(results[(s, f)][1] if f in ok else 2 * a.timeout for f in files)
        med = statistics.median(times) if times else float("nan")
        print(f"{s:<12}{cnt('sat'):>5}{cnt('unsat'):>6}{cnt('unknown'):>6}{cnt('error') + cnt('killed'):>5}"
              f"{wrong:>6}{len(ok):>7}{sum(r[1] for r in rs):>9.1f}{med:>9.3f}{par2:>9.1f}")
    for i, s in enumerate(solvers):
        for t in solvers[i + 1:]:
            both = [f for f in solved[s] if f in set(solved[t])]
            if both:
                ratio = statistics.median(results[(s, f)][1] / max(results[(t, f)][1], 1e-6) for f in both)
                print(f"median time ratio {s}/{t} on {len(both)} files both solve: {ratio:.3f}")
    print(f"csv: {a.csv}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
