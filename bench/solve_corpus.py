#!/usr/bin/env python3
"""Solver benchmark driver: run a list of backends over an SMT-LIB corpus.

Each backend decides every `.smt2` file of the corpus under one timeout. The
driver prints, per backend: sat / unsat / unknown / timeout / error / killed
counts, wrong answers against the labels, solved count (sat or unsat and not
wrong), PAR-2 and the median time on solved files; then, per pair of
backends, the median time ratio on files both solve (ratios from the same
run, so machine noise affects both sides alike) and how many files each
solves that the other does not. It writes one CSV row per (backend, file):
backend, file, answer, class, seconds, label, wrong, detail.

Backends (`--solvers A,B,...` and/or repeated `--solver SPEC`):
  z3, cp, portfolio        `fpsym solve --solver NAME --timeout T FILE`
  process:CMD ARGS...      `fpsym solve --solver "process:CMD ARGS..."`: fpsym
                           drives an SMT-LIB 2 solver binary, e.g.
                           `process:z3 -in`, `process:cvc5 --lang smt2`,
                           `process:scripts/bitwuzla-smt2`
  bitwuzla-direct          scripts/bitwuzla-smt2 --timeout T FILE, no fpsym:
                           Bitwuzla's own count, the reference to beat
  direct:CMD ARGS...       CMD ARGS with FILE on standard input, no fpsym,
                           killed after T seconds (e.g. `direct:z3 -in`)
  all (= --preset compare) cp, z3, portfolio, process:z3 -in,
                           process:cvc5 --lang smt2, and
                           process:scripts/bitwuzla-smt2 when the Python
                           package bitwuzla (PyPI) is installed
Commas separate entries, so a command in a spec must not contain one.

Classes: an `unknown` answer that took at least 0.95 * T is a `timeout`;
a nonzero exit (fpsym: 2 input error, 3 internal error) is an `error`; a
run of fpsym still going at 2 * T + 10 s is `killed` (fpsym ignored its
timeout); a direct run still going at T (+5 s for bitwuzla-direct, which
has its own timeout) is a `timeout`.

Labels: `--labels FILE` (default: qf_fp_labels.yml beside the corpus, the
`benchmark:` / `expected_sat:` YAML of the SMT-LIB release; `none` for no
file), else `(set-info :status sat|unsat)` or `; expect: sat|unsat` in the
file itself.

Usage:
  bench/solve_corpus.py [--solvers z3,cp | all] [--solver SPEC]...
      [--preset compare] [--timeout 10] [--corpus DIR] [--labels FILE|none]
      [--csv OUT] [--fpsym BIN] [--jobs 1] [--filter SUBSTR]... [--limit N]
      [-v]
Examples:
  bench/solve_corpus.py --solvers cp,z3 --limit 5
  bench/solve_corpus.py --solvers all,bitwuzla-direct --timeout 10
  bench/solve_corpus.py --solver cp --solver 'process:cvc5 --lang smt2' \\
      --filter griggio
  SOLVERS=all bench/solve-corpus.sh           # what `make bench` runs, with all
Keep --jobs 1 (the default) for timings that compare fairly.
"""
import argparse, csv, os, re, signal, statistics, subprocess, sys, time
from concurrent.futures import ThreadPoolExecutor

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(here)
default_corpus = os.environ.get("FPSYM_CORPUS", os.path.join(root, "..", "shared", "bench", "smtlib", "qf_fp"))
bitwuzla_shim = os.path.join(root, "scripts", "bitwuzla-smt2")
ANSWERS = ("sat", "unsat", "unknown")
CLASSES = ("sat", "unsat", "unknown", "timeout", "error", "killed")


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
            m = re.search(r"\(set-info\s+:status\s+(sat|unsat)\s*\)|;\s*expect:\s*(sat|unsat)\b", line)
            if m:
                return m.group(1) or m.group(2)
    return None


def bitwuzla_installed():
    return subprocess.run([sys.executable, "-c", "import bitwuzla"], capture_output=True).returncode == 0


def resolve_command(spec_cmd):
    """`scripts/x ...` relative to the repo root when it is not relative to the cwd."""
    words = spec_cmd.split(" ", 1)
    cmd = words[0]
    if "/" in cmd and not os.path.isabs(cmd) and not os.path.exists(cmd) and os.path.exists(os.path.join(root, cmd)):
        words[0] = os.path.join(root, cmd)
    return " ".join(words)


class Backend:
    """name: shown and written to the CSV; kind: fpsym | direct."""

    def __init__(self, name, kind, spec=None, argv=None, grace=0.0):
        self.name, self.kind, self.spec, self.argv, self.grace = name, kind, spec, argv, grace


def make_backend(entry):
    entry = entry.strip()
    if entry == "bitwuzla-direct":
        return Backend(entry, "direct", argv=[sys.executable, bitwuzla_shim], grace=5.0)
    if entry.startswith("direct:"):
        return Backend(entry, "direct", argv=resolve_command(entry[len("direct:"):].strip()).split())
    if entry.startswith("process:"):
        return Backend(entry, "fpsym", spec="process:" + resolve_command(entry[len("process:"):].strip()))
    return Backend(entry, "fpsym", spec=entry)


def preset_compare(notes):
    specs = ["cp", "z3", "portfolio", "process:z3 -in", "process:cvc5 --lang smt2"]
    if bitwuzla_installed():
        specs.append("process:scripts/bitwuzla-smt2")
    else:
        notes.append("Bitwuzla skipped: the Python package bitwuzla is not installed (pip install bitwuzla)")
    return specs


def backend_list(a, notes):
    entries = []
    for flag, value in a.backends or []:  # in command-line order
        entries += value.split(",") if flag == "solvers" else [value]
    if a.preset:
        entries = ["all"] + entries
    if not entries:
        entries = ["z3"]
    out, seen = [], set()
    for e in (e.strip() for e in entries):
        if not e:
            continue
        for s in (preset_compare(notes) if e in ("all", "compare") else [e]):
            if s == "bitwuzla-direct" and not bitwuzla_installed():
                notes.append("bitwuzla-direct skipped: the Python package bitwuzla is not installed")
                continue
            if s not in seen:
                seen.add(s)
                out.append(make_backend(s))
    return out


def run_proc(argv, stdin_path, kill_after):
    """(returncode or None when killed, stdout, stderr, seconds)."""
    t0 = time.monotonic()
    stdin = open(stdin_path, "rb") if stdin_path else subprocess.DEVNULL
    try:
        p = subprocess.Popen(argv, stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             start_new_session=True)
        try:
            out, err = p.communicate(timeout=kill_after)
            code = p.returncode
        except subprocess.TimeoutExpired:
            try:
                os.killpg(p.pid, signal.SIGKILL)  # fpsym and the solver it started
            except ProcessLookupError:
                pass
            out, err = p.communicate()
            code = None
    except OSError as e:
        return 127, b"", str(e).encode(), time.monotonic() - t0
    finally:
        if stdin_path:
            stdin.close()
    return code, out, err, time.monotonic() - t0


# fpsym configurations named for the benchmark (backend spec -> solve flags).
FPSYM_ALIASES = {
    "portfolio-seq": ["--solver", "portfolio", "--portfolio", "sequential"],
    "portfolio-bare": ["--solver", "portfolio", "--no-cache", "--no-independence"],
}


def run_one(fpsym, backend, timeout, path):
    """(answer, class, seconds, detail)."""
    if backend.kind == "fpsym":
        solver = FPSYM_ALIASES.get(backend.spec, ["--solver", backend.spec])
        argv = [fpsym, "solve", *solver, "--timeout", f"{timeout:g}", path]
        code, out, err, sec = run_proc(argv, None, timeout * 2 + 10)
    else:
        argv = list(backend.argv)
        if backend.name == "bitwuzla-direct":
            code, out, err, sec = run_proc(argv + ["--timeout", f"{timeout:g}", path], None, timeout + backend.grace)
        else:
            code, out, err, sec = run_proc(argv, path, timeout + backend.grace)
    out = out.decode(errors="replace")
    err = err.decode(errors="replace").strip()
    answer = next((w for w in (l.strip() for l in out.splitlines()) if w in ANSWERS), "")
    last = lambda s: s.splitlines()[-1][:300] if s else ""
    if code is None:
        cls = "killed" if backend.kind == "fpsym" else "timeout"
        detail = f"killed after {sec:.1f}s"
    elif code != 0:
        cls = "error"
        errline = next((l for l in out.splitlines() if l.startswith("(error")), "")
        detail = f"exit {code}: " + (last(err) or errline[:300] or last(out.strip()))
    elif not answer:
        cls, detail = "error", "no answer: " + (last(err) or last(out.strip()))
    elif answer == "unknown" and sec >= 0.95 * timeout:
        cls, detail = "timeout", last(err)
    else:
        cls, detail = answer, last(err)
    return answer, cls, sec, detail


class Tagged(argparse.Action):
    """--solvers and --solver append (flag, value) to one list, keeping their order."""

    def __call__(self, parser, namespace, value, option_string=None):
        items = list(getattr(namespace, self.dest, None) or [])
        items.append((option_string.lstrip("-"), value))
        setattr(namespace, self.dest, items)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n", 2)[2])
    ap.add_argument("--solvers", dest="backends", action=Tagged, metavar="A,B,...",
                    help="comma-separated backends (repeatable); `all` = the compare preset")
    ap.add_argument("--solver", dest="backends", action=Tagged, metavar="SPEC",
                    help="one backend, may contain spaces and commas (repeatable)")
    ap.add_argument("--preset", choices=["compare"], help="compare: cp, z3, portfolio, process z3/cvc5/bitwuzla")
    ap.add_argument("--timeout", type=float, default=10)
    ap.add_argument("--corpus", default=default_corpus)
    ap.add_argument("--labels", default=None, help="labels YAML, or `none`")
    ap.add_argument("--csv", default=os.path.join(root, "target", "bench-solve.csv"))
    ap.add_argument("--fpsym", default=os.path.join(root, "target", "release", "fpsym"))
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--filter", action="append", default=[],
                    help="keep files whose path under the corpus contains SUBSTR (repeatable: any)")
    ap.add_argument("--limit", type=int, default=0, help="first N files (after --filter)")
    ap.add_argument("-v", "--verbose", action="store_true", help="one line per run on stderr")
    a = ap.parse_args()
    corpus = os.path.abspath(a.corpus)
    if not os.path.isdir(corpus):
        print(f"corpus {corpus} not found; set FPSYM_CORPUS", file=sys.stderr)
        return 2
    fpsym = os.path.abspath(a.fpsym)
    labels_path = a.labels or os.path.join(os.path.dirname(corpus), "qf_fp_labels.yml")
    labels = load_labels(None if labels_path == "none" else labels_path)
    files = sorted(os.path.relpath(os.path.join(d, f), corpus)
                   for d, _, fs in os.walk(corpus) for f in fs if f.endswith(".smt2"))
    if a.filter:
        files = [f for f in files if any(s in f for s in a.filter)]
    if a.limit > 0:
        files = files[:a.limit]
    notes = []
    backends = backend_list(a, notes)
    for n in notes:
        print(n)
    if any(b.kind == "fpsym" for b in backends) and not os.access(fpsym, os.X_OK):
        print(f"{fpsym} not found: build it (cargo build --release) or pass --fpsym", file=sys.stderr)
        return 2
    expected = {}
    for f in files:
        exp = labels.get(f)
        expected[f] = exp if exp in ("sat", "unsat") else file_label(os.path.join(corpus, f))
    names = [b.name for b in backends]
    results = {}
    os.makedirs(os.path.dirname(os.path.abspath(a.csv)), exist_ok=True)
    with open(a.csv, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["backend", "file", "answer", "class", "seconds", "label", "wrong", "detail"])
        for b in backends:
            t0 = time.monotonic()

            def job(f, b=b):
                r = run_one(fpsym, b, a.timeout, os.path.join(corpus, f))
                if a.verbose:
                    print(f"  {b.name}: {f}: {r[1]} {r[2]:.2f}s {r[3]}", file=sys.stderr, flush=True)
                return r

            with ThreadPoolExecutor(max_workers=max(1, a.jobs)) as ex:
                for f, (ans, cls, sec, detail) in zip(files, ex.map(job, files)):
                    exp = expected[f]
                    wrong = cls in ("sat", "unsat") and exp in ("sat", "unsat") and cls != exp
                    results[(b.name, f)] = (cls, sec, exp, wrong)
                    w.writerow([b.name, f, ans, cls, f"{sec:.3f}", exp or "", int(wrong), detail])
                    fh.flush()
            print(f"[{b.name}: {len(files)} files in {time.monotonic() - t0:.1f}s]", file=sys.stderr, flush=True)

    print(f"corpus: {corpus} ({len(files)} files, {sum(1 for f in files if expected[f])} labelled), "
          f"timeout {a.timeout:g}s, jobs {a.jobs}")
    nw = max([7] + [len(n) for n in names]) + 1
    print(f"{'backend':<{nw}}{'sat':>5}{'unsat':>6}{'unkn':>6}{'t/o':>5}{'err':>5}{'kill':>5}{'wrong':>6}"
          f"{'solved':>7}{'PAR-2':>9}{'median s':>9}{'total s':>9}")
    solved, wrong_files = {}, {}
    for n in names:
        rs = [results[(n, f)] for f in files]
        cnt = lambda k: sum(1 for r in rs if r[0] == k)
        ok = [f for f in files if results[(n, f)][0] in ("sat", "unsat") and not results[(n, f)][3]]
        solved[n] = set(ok)
        wrong_files[n] = [f for f in files if results[(n, f)][3]]
        times = [results[(n, f)][1] for f in ok]
        par2 = sum(results[(n, f)][1] if f in solved[n] else 2 * a.timeout for f in files)
        med = f"{statistics.median(times):.3f}" if times else "-"
        print(f"{n:<{nw}}{cnt('sat'):>5}{cnt('unsat'):>6}{cnt('unknown'):>6}{cnt('timeout'):>5}{cnt('error'):>5}"
              f"{cnt('killed'):>5}{len(wrong_files[n]):>6}{len(ok):>7}{par2:>9.1f}{med:>9}"
              f"{sum(r[1] for r in rs):>9.1f}")
    for n in names:
        for f in wrong_files[n][:10]:
            print(f"WRONG {n}: {f}: answered {results[(n, f)][0]}, label {results[(n, f)][2]}")
    if len(names) > 1:
        print("pairs (A vs B): files both solve, median time ratio A/B on them, solved by A not B, by B not A")
    for i, s in enumerate(names):
        for t in names[i + 1:]:
            if not solved[s] and not solved[t]:
                continue
            both = [f for f in files if f in solved[s] and f in solved[t]]
            ratio = (f"{statistics.median(results[(s, f)][1] / max(results[(t, f)][1], 1e-6) for f in both):.3f}"
                     if both else "-")
            print(f"  {s} vs {t}: both {len(both)}, ratio {ratio}, "
                  f"only {s} {len(solved[s] - solved[t])}, only {t} {len(solved[t] - solved[s])}")
    print(f"csv: {a.csv}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
