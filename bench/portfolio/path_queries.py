#!/usr/bin/env python3
"""Solvers on real path conditions: dump the queries of `fpsym run` over the
examples, then decide them with every backend in one run (issue 16).

1. Every program in examples/c/ runs with `fpsym run FILE --max-time R
   --dump-queries DIR/dump/NAME` (its `// fpsym-flags:` line added), with the
   default portfolio deciding; each query that reached a backend is written
   as a standalone script with the answer in `(set-info :status ...)` and
   the backend and time in a comment.
2. Per program, the K queries that took the longest (the interesting ones:
   most path conditions are decided in microseconds) are copied to
   DIR/corpus/NAME-query-N.smt2, at most --limit in all.
3. bench/solve_corpus.py decides the corpus with cp, z3, the default
   portfolio, ls, cvc5 and Bitwuzla (through `fpsym solve --solver
   process:...`, so every backend pays the same process and parsing costs),
   one job at a time, and prints solved counts, median times and same-run
   ratios. Bitwuzla needs its Python package (`pip install bitwuzla`); when
   it is missing it is listed as unavailable.

Usage:
  bench/portfolio/path_queries.py [--fpsym BIN] [--run-time 20] [--per-program 3]
      [--limit 40] [--timeout 10] [--dir target/bench-path-queries] [--keep]
"""
import argparse, os, re, shutil, subprocess, sys

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(here))


def flags_of(path):
    for line in open(path):
        m = re.match(r"\s*(?://|/?\*)\s*fpsym-flags:\s*(.*?)\s*(?:\*/)?\s*$", line)
        if m:
            return m.group(1).split()
    return []


def recorded_time(path):
    """The seconds the dumping backend took, from the first comment line."""
    with open(path) as f:
        first = f.readline()
    m = re.search(r"in ([0-9.]+) s", first)
    return float(m.group(1)) if m else 0.0


def bitwuzla_installed():
    return subprocess.run([sys.executable, "-c", "import bitwuzla"], capture_output=True).returncode == 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    ap.add_argument("--fpsym", default=os.path.join(root, "target", "release", "fpsym"))
    ap.add_argument("--run-time", type=float, default=20, help="--max-time of each fpsym run")
    ap.add_argument("--per-program", type=int, default=3, help="slowest queries kept per program")
    ap.add_argument("--limit", type=int, default=40, help="queries in the corpus at most")
    ap.add_argument("--timeout", type=float, default=10, help="per query and backend")
    ap.add_argument("--dir", default=os.path.join(root, "target", "bench-path-queries"))
    ap.add_argument("--keep", action="store_true", help="reuse an existing dump")
    a = ap.parse_args()
    if not os.path.exists(a.fpsym):
        sys.exit(f"{a.fpsym} not found: cargo build --release --bin fpsym")
    dump, corpus = os.path.join(a.dir, "dump"), os.path.join(a.dir, "corpus")
    if not a.keep:
        shutil.rmtree(a.dir, ignore_errors=True)
    os.makedirs(dump, exist_ok=True)
    programs = sorted(f for f in os.listdir(os.path.join(root, "examples", "c")) if f.endswith(".c"))
    for p in programs:
        name = p[:-2]
        d = os.path.join(dump, name)
        if a.keep and os.path.isdir(d):
            continue
        src = os.path.join(root, "examples", "c", p)
        argv = [a.fpsym, "run", src, "-o", os.path.join(a.dir, "out", name), "--max-time", str(a.run_time),
                "--dump-queries", d] + flags_of(src)
        r = subprocess.run(argv, capture_output=True, text=True)
        n = len(os.listdir(d)) if os.path.isdir(d) else 0
        print(f"# {name}: exit {r.returncode}, {n} queries dumped", file=sys.stderr)
    shutil.rmtree(corpus, ignore_errors=True)
    os.makedirs(corpus)
    chosen = []
    for p in programs:
        d = os.path.join(dump, p[:-2])
        if not os.path.isdir(d):
            continue
        qs = sorted((f for f in os.listdir(d) if f.endswith(".smt2")),
                    key=lambda f: (-recorded_time(os.path.join(d, f)), f))
        chosen += [(p[:-2], f, recorded_time(os.path.join(d, f))) for f in qs[:a.per_program]]
    # Over the limit: the slowest first, across programs.
    chosen.sort(key=lambda c: -c[2])
    for name, f, _ in chosen[:a.limit]:
        shutil.copy(os.path.join(dump, name, f), os.path.join(corpus, f"{name}-{f}"))
    print(f"# corpus: {min(len(chosen), a.limit)} queries from {len(programs)} programs in {corpus}", file=sys.stderr)
    solvers = ["cp", "z3", "portfolio", "ls", "process:cvc5 --lang smt2"]
    if bitwuzla_installed():
        solvers.append("process:scripts/bitwuzla-smt2")
    else:
        print("# Bitwuzla: unavailable (pip install bitwuzla)", file=sys.stderr)
    argv = [sys.executable, os.path.join(root, "bench", "solve_corpus.py"), "--corpus", corpus, "--labels", "none",
            "--timeout", str(a.timeout), "--fpsym", a.fpsym, "--csv", os.path.join(a.dir, "results.csv")]
    for s in solvers:
        argv += ["--solver", s]
    sys.exit(subprocess.run(argv).returncode)


if __name__ == "__main__":
    main()
