#!/usr/bin/env python3
"""GNU GSL's special functions under `fpsym exceptions --all-functions --replay`.

Per function: the exceptions fpsym reports by kind (fp-overflow,
fp-underflow, fp-divide-by-zero, fp-invalid, float-cast-overflow), how many
native replay confirms, how many overflows/underflows are `avoidable`, the
input-to-location pairs and the time; then totals as [locations, pairs]
beside Ariadne's GSL numbers (seed 003, Section 5: 467 functions, 2091
input-to-location pairs, 89 h on 18 cores; Table 5, Table 6).

Setup (idempotent, into --cache, default target/bench-cache/gsl, which is
git-ignored):
  1. GSL's Debian source package: adds a `deb-src` entry for the archive
     the machine already uses (/etc/apt/sources.list.d/fpsym-deb-src.sources)
     when none exists, `apt-get update`, `apt-get source --download-only gsl`,
     `dpkg-source -x` (installs dpkg-dev when dpkg-source is missing).
     Needs root (or an already fetched cache) and Debian's archive.
  2. `./configure CC=clang-14` (for config.h) and the gsl/ header links
     that `make` would make.
  3. Every source of the libraries specfunc links with (specfunc, sys,
     err, complex, poly, ieee-utils, block, vector, matrix, permutation,
     sort, blas, cblas, linalg, eigen) compiled to LLVM bitcode with
     fpsym's flags; `llvm-nm-14` gives each file's defined and undefined
     symbols.

Then one `fpsym exceptions` per specfunc file: that file as C (the user's
code: `--all-functions` analyses its external functions) and, as bitcode,
the files that define what it calls, transitively (so their functions are
linked and executed but not analysed on their own). One fpsym process at a
time.

Usage:
  bench/exceptions/gsl_sweep.py [--fpsym BIN] [--time-per-function 10]
      [--files GLOB ...] [--limit N] [--out DIR] [--cache DIR] [--resume]
      [--no-replay] [--all-signatures] [--fpsym-arg ARG ...] [--setup-only]
Only gsl_sf_* functions with scalar inputs (as Ariadne's) count in the
totals; the others are analysed all the same and listed apart.
Exit: 0 when every reported exception is confirmed by native replay, 1 when
one is not (or a function's replay is missing), 2 when setup fails.
"""
import argparse, concurrent.futures, fnmatch, glob, json, os, re, shutil, signal, subprocess, sys, time

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(here))

# Libraries searched for a symbol's definition, in this order (specfunc's
# test_LDADD in specfunc/Makefile.am, less the test library).
LIBS = ["specfunc", "sys", "err", "complex", "poly", "ieee-utils", "block", "vector", "matrix",
        "permutation", "sort", "blas", "cblas", "linalg", "eigen"]

# fpsym's analysis flags (crates/frontend: NATIVE_FLAGS and fixed_flags).
BC_FLAGS = ["-g", "-O0", "-ffp-contract=off", "-fno-discard-value-names", "-Xclang", "-disable-O0-optnone",
            "-emit-llvm", "-c", "-w"]

KINDS = ["fp-overflow", "fp-underflow", "fp-divide-by-zero", "fp-invalid", "float-cast-overflow"]
SHORT = {"fp-overflow": "ovf", "fp-underflow": "unf", "fp-divide-by-zero": "dbz", "fp-invalid": "inv",
         "float-cast-overflow": "cast"}

# Ariadne on GSL 1.14 (seed 003, Section 5).
ARIADNE = {
    "functions": 467,
    "pairs": 2091,
    "hours": 89,
    "cores": 18,
    "table5_infinity_shared": [636, 847],
    "table6": {"fp-overflow": {"avoidable": 98, "total": 155}, "fp-underflow": {"avoidable": 180, "total": 217}},
    "table5_infinity": {"no_timeout": 363, "all_paths_explored": 136, "no_exception": 45},
}


def log(msg):
    print(msg, file=sys.stderr, flush=True)


class SetupError(Exception):
    pass


def need(tool, package):
    if not shutil.which(tool):
        raise SetupError(f"{tool} not found: install the Debian package {package} (apt-get install {package})")


def sh(argv, **kw):
    p = subprocess.run(argv, capture_output=True, text=True, **kw)
    if p.returncode != 0:
        raise SetupError(f"failed (exit {p.returncode}): {' '.join(argv)}\n{p.stdout[-2000:]}{p.stderr[-2000:]}")
    return p


# ---------------------------------------------------------------- setup


def has_deb_src():
    files = glob.glob("/etc/apt/sources.list") + glob.glob("/etc/apt/sources.list.d/*.list") + \
        glob.glob("/etc/apt/sources.list.d/*.sources")
    for f in files:
        try:
            text = open(f).read()
        except OSError:
            continue
        if f.endswith(".sources"):
            for stanza in re.split(r"\n\s*\n", text):
                if re.search(r"^Types:.*\bdeb-src\b", stanza, re.M) and not re.search(r"^Enabled:\s*no", stanza, re.M):
                    return True
        elif re.search(r"^\s*deb-src\s", text, re.M):
            return True
    return False


def deb_src_stanza():
    """A deb-src stanza for the Debian archive the machine's deb entries use
    (deb822 debian.sources, or one-line sources.list)."""
    for f in sorted(glob.glob("/etc/apt/sources.list.d/*.sources")):
        for stanza in re.split(r"\n\s*\n", open(f).read()):
            fields = dict(re.findall(r"^([A-Za-z-]+):\s*(.*)$", stanza, re.M))
            uris = fields.get("URIs", "")
            if "deb" in fields.get("Types", "").split() and "debian" in uris and "security" not in uris:
                suite = fields.get("Suites", "bookworm").split()[0]
                out = f"Types: deb-src\nURIs: {uris}\nSuites: {suite}\nComponents: {fields.get('Components', 'main')}\n"
                if "Signed-By" in fields:
                    out += f"Signed-By: {fields['Signed-By']}\n"
                return out
    for f in glob.glob("/etc/apt/sources.list") + sorted(glob.glob("/etc/apt/sources.list.d/*.list")):
        for line in open(f):
            m = re.match(r"\s*deb\s+(\[[^]]*\]\s+)?(\S*debian\S*)\s+(\S+)\s+(.*)", line)
            if m and "security" not in m.group(2):
                opts = m.group(1) or ""
                signed = re.search(r"signed-by=(\S+?)\]?(\s|$)", opts)
                out = f"Types: deb-src\nURIs: {m.group(2)}\nSuites: {m.group(3)}\nComponents: {m.group(4).strip()}\n"
                if signed:
                    out += f"Signed-By: {signed.group(1).rstrip(']')}\n"
                return out
    return ("Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: bookworm\nComponents: main\n"
            "Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg\n")


def fetch(cache):
    """GSL's Debian source in CACHE/src (skipped when already there)."""
    src = os.path.join(cache, "src")
    if os.path.isfile(os.path.join(src, "specfunc", "gamma.c")):
        return src
    os.makedirs(cache, exist_ok=True)
    root_user = os.geteuid() == 0
    if not glob.glob(os.path.join(cache, "gsl_*.dsc")):
        need("apt-get", "apt")
        if not has_deb_src():
            if not root_user:
                raise SetupError("GSL's source is not in the cache and no deb-src entry is configured: run as root "
                                 "(the script adds /etc/apt/sources.list.d/fpsym-deb-src.sources and runs "
                                 "apt-get update), or add a deb-src line yourself")
            path = "/etc/apt/sources.list.d/fpsym-deb-src.sources"
            log(f"setup: adding {path} (deb-src for Debian's archive) and running apt-get update")
            with open(path, "w") as f:
                f.write("# Added by fpsym bench/exceptions/gsl_sweep.py: source packages (apt-get source gsl)\n")
                f.write(deb_src_stanza())
            sh(["apt-get", "update"])
        if not shutil.which("dpkg-source"):
            if not root_user:
                raise SetupError("dpkg-source not found: apt-get install dpkg-dev (as root)")
            log("setup: apt-get install dpkg-dev (for dpkg-source)")
            sh(["apt-get", "install", "-y", "--no-install-recommends", "dpkg-dev"])
        log(f"setup: apt-get source --download-only gsl (into {cache})")
        p = subprocess.run(["apt-get", "source", "--download-only", "gsl"], cwd=cache, capture_output=True, text=True)
        if p.returncode != 0 and root_user and "deb-src" in p.stderr:
            sh(["apt-get", "update"])
            p = subprocess.run(["apt-get", "source", "--download-only", "gsl"], cwd=cache, capture_output=True, text=True)
        if p.returncode != 0:
            raise SetupError(f"apt-get source gsl failed:\n{p.stderr[-2000:]}")
    need("dpkg-source", "dpkg-dev")
    dsc = sorted(glob.glob(os.path.join(cache, "gsl_*.dsc")))[-1]
    tmp = src + ".tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    log(f"setup: dpkg-source -x {os.path.basename(dsc)}")
    sh(["dpkg-source", "-x", dsc, tmp])
    os.rename(tmp, src)
    return src


def configure(src):
    """config.h by GSL's ./configure, and gsl/gsl*.h links as `make` makes."""
    if not os.path.isfile(os.path.join(src, "config.h")):
        need("clang-14", "clang-14")
        need("make", "make")
        log("setup: ./configure CC=clang-14 (for config.h)")
        p = subprocess.run(["./configure", "CC=clang-14"], cwd=src, capture_output=True, text=True)
        open(os.path.join(src, "..", "configure.log"), "w").write(p.stdout + p.stderr)
        if p.returncode != 0 or not os.path.isfile(os.path.join(src, "config.h")):
            raise SetupError(f"./configure failed (see {src}/../configure.log):\n{p.stderr[-2000:]}")
    inc = os.path.join(src, "gsl")
    for h in glob.glob(os.path.join(src, "gsl*.h")) + glob.glob(os.path.join(src, "*", "gsl*.h")):
        if os.path.dirname(h) == inc:
            continue
        link = os.path.join(inc, os.path.basename(h))
        if not os.path.lexists(link):
            os.symlink(os.path.relpath(h, inc), link)


def lib_sources(src, lib):
    """The .c files of LIB's libgsl*_la_SOURCES (Makefile.am)."""
    text = open(os.path.join(src, lib, "Makefile.am")).read().replace("\\\n", " ")
    m = re.search(r"^lib\w*_la_SOURCES\s*=(.*)$", text, re.M)
    return [os.path.join(lib, w) for w in (m.group(1).split() if m else []) if w.endswith(".c")]


def nm(bc):
    out = sh(["llvm-nm-14", "-P", bc]).stdout
    defined, strong, undefined = [], [], []
    for line in out.splitlines():
        parts = line.split()
        if len(parts) < 2:
            continue
        name, t = parts[0], parts[1]
        if t == "U":
            undefined.append(name)
        elif t in "TDBRCWV":
            defined.append(name)
            if t in "TDBR":
                strong.append(name)
    return {"defined": defined, "strong": strong, "undefined": undefined,
            "functions": [l.split()[0] for l in out.splitlines() if len(l.split()) > 1 and l.split()[1] == "T"]}


def index(src, cache, jobs):
    """Bitcode and symbols of every library source, compiled once."""
    need("clang-14", "clang-14")
    need("llvm-nm-14", "llvm-14")
    path = os.path.join(cache, "index.json")
    key = {"flags": BC_FLAGS, "clang": shutil.which("clang-14"), "libs": LIBS}
    old = {}
    if os.path.isfile(path):
        try:
            data = json.load(open(path))
            if data.get("key") == key:
                old = data["files"]
        except ValueError:
            pass
    files = [f for lib in LIBS for f in lib_sources(src, lib)]
    todo = []
    for f in files:
        bc = os.path.join(cache, "bc", f[:-2] + ".bc")
        c = os.path.join(src, f)
        if f not in old or not os.path.isfile(bc) or os.path.getmtime(bc) < os.path.getmtime(c):
            todo.append((f, c, bc))
    errors = {}

    def compile_one(item):
        f, c, bc = item
        os.makedirs(os.path.dirname(bc), exist_ok=True)
        p = subprocess.run(["clang-14"] + BC_FLAGS + ["-I", src, c, "-o", bc], capture_output=True, text=True)
        if p.returncode != 0:
            return f, None, p.stderr
        return f, nm(bc), None

    if todo:
        log(f"setup: compiling {len(todo)} GSL sources to bitcode ({jobs} at a time)")
        with concurrent.futures.ThreadPoolExecutor(jobs) as ex:
            for f, syms, err in ex.map(compile_one, todo):
                if syms is None:
                    errors[f] = err
                    old.pop(f, None)
                else:
                    old[f] = syms
        json.dump({"key": key, "files": old}, open(path, "w"))
    for f, e in errors.items():
        log(f"setup: clang-14 failed on {f}:\n{e[-1000:]}")
    return {f: dict(old[f], bc=os.path.join(cache, "bc", f[:-2] + ".bc")) for f in files if f in old}


def closure(target, idx):
    """The library files that define what TARGET needs, transitively (not
    TARGET itself); symbols nobody defines (libc, libm) stay external.
    Returns (files, conflicts)."""
    definer = {}
    for f, s in idx.items():
        for name in s["defined"]:
            definer.setdefault(name, f)
    chosen, conflicts = [], []
    have = set(idx[target]["defined"])
    strong = {n: target for n in idx[target]["strong"]}
    queue = list(idx[target]["undefined"])
    while queue:
        name = queue.pop()
        if name in have or name not in definer:
            continue
        f = definer[name]
        if f == target or f in chosen:
            continue
        chosen.append(f)
        for n in idx[f]["strong"]:
            if n in strong and strong[n] != f:
                conflicts.append(f"{n}: {strong[n]} and {f}")
            strong.setdefault(n, f)
        have.update(idx[f]["defined"])
        queue.extend(idx[f]["undefined"])
    return chosen, conflicts


def prototypes(src):
    """gsl_sf_* prototypes of specfunc's headers: NAME -> why it is not a
    scalar function (an array, a coefficient vector or a workspace
    parameter; Ariadne analysed functions with scalar inputs), or None when
    it is (gsl_sf_result * and single double * outputs count as scalar)."""
    out = {}
    for h in sorted(glob.glob(os.path.join(src, "specfunc", "*.h"))):
        text = re.sub(r"/\*.*?\*/", " ", open(h).read(), flags=re.S)
        for m in re.finditer(r"\b(gsl_sf_\w+)\s*\(([^()]*)\)\s*;", text):
            why = None
            for param in m.group(2).split(","):
                param = " ".join(param.split())
                if "[" in param or "array" in param or "workspace" in param or param.startswith("const double *") \
                        or param.startswith("const double*"):
                    why = param
                    break
            out.setdefault(m.group(1), why)
    return out


# ---------------------------------------------------------------- runs


def list_lines(stream):
    """The lines of STREAM with the times each arrived (monotonic, epoch)."""
    return [(line, time.monotonic(), time.time()) for line in stream]


def run_file(a, src, target, idx, out):
    """`fpsym exceptions` on one specfunc file; returns what it did."""
    deps, conflicts = closure(target, idx)
    stem = os.path.basename(target)[:-2]
    odir = os.path.join(out, "runs", stem)
    n = len([f for f in idx[target]["functions"] if f != "main"])
    argv = [a.fpsym, "exceptions", os.path.join(src, target)] + [idx[d]["bc"] for d in deps] + \
        ["-I", src, "--all-functions", "--max-time-per-function", str(a.time_per_function)] + \
        ([] if a.no_replay else ["--replay"]) + ["-o", odir, "--force"] + a.fpsym_arg
    os.makedirs(os.path.join(out, "runs"), exist_ok=True)
    limit = a.file_timeout_base + n * (a.time_per_function * 2 + a.replay_slack)
    starts, epochs, lines = {}, {}, []
    t0 = time.monotonic()
    p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    killed = [False]

    def watchdog():
        try:
            p.wait(timeout=limit)
        except subprocess.TimeoutExpired:
            killed[0] = True
            os.killpg(p.pid, signal.SIGTERM)
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)

    with concurrent.futures.ThreadPoolExecutor(2) as ex:
        wd = ex.submit(watchdog)
        err_f = ex.submit(p.stderr.read)
        current = None
        try:
            lines_in = list_lines(p.stdout)
        except BaseException:
            # Ctrl-C: the run is in its own session, so stop it here.
            os.killpg(p.pid, signal.SIGTERM)
            raise
        for line, mono, epoch in lines_in:
            now = mono - t0
            lines.append(line)
            m = re.match(r"== (\S+)$", line.rstrip("\n"))
            if m:
                if current:
                    starts[current][1] = now
                current = m.group(1)
                starts[current] = [now, None]
                epochs[current] = epoch
            elif line.startswith("functions: ") and current:
                starts[current][1] = now
                current = None
        stderr = err_f.result()
        wd.result()
    wall = time.monotonic() - t0
    if current and starts[current][1] is None:
        starts[current][1] = wall
    os.makedirs(os.path.join(out, "logs"), exist_ok=True)
    with open(os.path.join(out, "logs", stem + ".log"), "w") as f:
        f.write("$ " + " ".join(argv) + "\n" + "".join(lines) + "\n--- stderr\n" + stderr)
    return {"file": target, "deps": deps, "conflicts": conflicts, "candidates": n, "exit": p.returncode,
            "killed": killed[0], "wall": wall, "stdout": "".join(lines), "stderr": stderr,
            "walls": {k: v[1] - v[0] for k, v in starts.items()}, "started": epochs, "dir": odir}


def load_json(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def function_result(name, fdir, run):
    """One function's results from OUT/functions/NAME."""
    findings = []
    for p in sorted(glob.glob(os.path.join(fdir, "findings", "*.json"))):
        f = load_json(p)
        if f:
            findings.append(f)
    stats = load_json(os.path.join(fdir, "stats.json"))
    replay = load_json(os.path.join(fdir, "replay.json"))
    confirmed, observed = {}, {}
    if replay:
        for r in replay.get("findings", []):
            key = (r["kind"], os.path.basename(r["file"]), r["line"], r["test"])
            confirmed[key] = r["confirmed"]
            o = r.get("observed") or {}
            raised = [f"{x['kind']} at {x.get('file')}:{x.get('line')}" for x in o.get("raised", [])
                      if x.get("kind") == r["kind"]]
            observed[key] = o.get("kind", "?") + (f", raised {', '.join(raised)}" if raised else "")
    events = {}
    for line in open(os.path.join(fdir, "events.jsonl")) if os.path.isfile(os.path.join(fdir, "events.jsonl")) else []:
        try:
            e = json.loads(line)
        except ValueError:
            continue
        detail = e.get("function") or e.get("reason") or e.get("message") or e.get("what") or ""
        k = (e.get("event", "?"), str(detail))
        events[k] = events.get(k, 0) + 1
    row = {"function": name, "file": run["file"], "by_kind": {k: 0 for k in KINDS}, "other_findings": 0, "other": [],
           "findings": [], "confirmed": 0, "unconfirmed": 0, "avoidable": {"fp-overflow": None, "fp-underflow": None},
           "pairs": 0, "wall": run["walls"].get(name), "seconds": None, "stop": None, "verdict": None,
           "incomplete": None, "replay": replay is not None,
           "events": [{"event": k[0], "detail": k[1], "count": c} for k, c in sorted(events.items())]}
    # Where a function's wall time went, from file times: exploration
    # (engine seconds), then what runs before stats.json is written (the
    # xflow classification), then replay (until replay.json).
    start = run.get("started", {}).get(name)
    stats_t = os.path.getmtime(os.path.join(fdir, "stats.json")) if stats else None
    replay_t = os.path.getmtime(os.path.join(fdir, "replay.json")) if replay else None
    if start and stats and stats_t:
        row["until_stats"] = stats_t - start
        if stats_t and replay_t:
            row["replay_seconds"] = replay_t - stats_t
    if stats:
        row["seconds"] = stats.get("stats", {}).get("seconds")
        row["stop"] = stats.get("stop")
        row["verdict"] = (stats.get("verdict") or {}).get("verdict")
        row["incomplete"] = stats.get("incomplete")
        row["stats"] = stats.get("stats")
    for f in findings:
        kind = f.get("kind")
        if kind not in KINDS:
            row["other_findings"] += 1
            row["other"].append(f"{kind} at {os.path.basename(f.get('file', ''))}:{f.get('line')}")
            continue
        row["by_kind"][kind] += 1
        inputs = f.get("inputs") or 1
        row["pairs"] += inputs
        key = (kind, os.path.basename(f.get("file", "")), f.get("line"), f.get("test"))
        ok = confirmed.get(key, False)
        row["confirmed" if ok else "unconfirmed"] += 1
        if kind in row["avoidable"] and "avoidable" in f:
            row["avoidable"][kind] = (row["avoidable"][kind] or 0) + (1 if f["avoidable"] else 0)
        row["findings"].append({"kind": kind, "file": os.path.basename(f.get("file", "")), "line": f.get("line"),
                                "column": f.get("column"), "test": f.get("test"), "inputs": inputs,
                                "avoidable": f.get("avoidable"), "confirmed": ok,
                                # Raised in a file linked as bitcode (not the analysed one).
                                "in_dependency": os.path.basename(f.get("file", "")) != os.path.basename(run["file"]),
                                "observed": None if ok else observed.get(key, "no replay result")})
    return row


def errors_of(run, names):
    """What fpsym said went wrong: a failed load (stderr), per-function
    errors (`NAME: message` lines)."""
    out = []
    for line in run["stdout"].splitlines():
        m = re.match(r"(\S+): (.*)$", line)
        if m and m.group(1) in names and not m.group(2).startswith(("fp-", "float-cast", "none")):
            out.append({"function": m.group(1), "message": m.group(2)})
    if run["exit"] not in (0, 1, 4) and not names:
        msg = [l for l in run["stderr"].splitlines() if l.strip()]
        out.append({"function": None, "message": "\n".join(msg[-20:]) or f"exit {run['exit']}"})
    if run["killed"]:
        out.append({"function": None, "message": "killed by the sweep's time limit for the file"})
    return out


# ---------------------------------------------------------------- report


def fmt_avoid(row):
    a = [row["avoidable"][k] for k in ("fp-overflow", "fp-underflow")]
    if all(x is None for x in a):
        return "-"
    return "/".join("-" if x is None else str(x) for x in a)


def table(rows):
    head = (f"{'function':<38} {'file':<18} {'ovf':>3} {'unf':>3} {'dbz':>3} {'inv':>3} {'cast':>4} "
            f"{'conf':>7} {'avoid':>5} {'pairs':>5} {'other':>5} {'engine':>6} {'wall':>6}  stop")
    lines = [head]
    for r in rows:
        k = r["by_kind"]
        n = sum(k.values())
        wall = f"{r['wall']:.1f}s" if r["wall"] is not None else "-"
        eng = f"{r['seconds']:.1f}s" if r["seconds"] is not None else "-"
        lines.append(f"{r['function']:<38} {os.path.basename(r['file']):<18} {k['fp-overflow']:>3} "
                     f"{k['fp-underflow']:>3} {k['fp-divide-by-zero']:>3} {k['fp-invalid']:>3} "
                     f"{k['float-cast-overflow']:>4} {r['confirmed']:>3}/{n:<3} {fmt_avoid(r):>5} {r['pairs']:>5} "
                     f"{r['other_findings']:>5} {eng:>6} {wall:>6}  {r['stop'] or ('no replay' if not r['replay'] else '-')}")
    return "\n".join(lines)


def totals(rows, runs, a):
    t = {"functions": len(rows), "files": len(runs), "by_kind": {k: 0 for k in KINDS}, "confirmed": 0,
         "unconfirmed": 0, "without_replay": sum(1 for r in rows if not r["replay"]),
         "avoidable": {}, "xflows": {}, "pairs": 0, "other_findings": {},
         "unconfirmed_where": {}, "unconfirmed_observed": {},
         "functions_with_exceptions": sum(1 for r in rows if sum(r["by_kind"].values())),
         "functions_exhausted": sum(1 for r in rows if r["stop"] == "exhausted"),
         "functions_complete": sum(1 for r in rows if r["stop"] == "exhausted" and not r["incomplete"]),
         "functions_complete_no_exception": sum(1 for r in rows if r["stop"] == "exhausted" and not r["incomplete"]
                                                and not sum(r["by_kind"].values())),
         "functions_verified": sum(1 for r in rows if r["verdict"] == "verified"),
         "engine_seconds": sum(r["seconds"] or 0 for r in rows),
         "after_engine_before_stats_seconds": sum(max(0.0, r.get("until_stats", 0) - (r["seconds"] or 0)) for r in rows),
         "replay_seconds": sum(r.get("replay_seconds", 0) for r in rows),
         "wall_seconds": sum(r["wall"] for r in runs), "time_per_function": a.time_per_function}
    locs = set()
    for r in rows:
        for f in r["findings"]:
            t["by_kind"][f["kind"]] += 1
            t["confirmed" if f["confirmed"] else "unconfirmed"] += 1
            if not f["confirmed"]:
                why = "in a bitcode dependency" if f["in_dependency"] else "in the analysed file"
                t["unconfirmed_where"][why] = t["unconfirmed_where"].get(why, 0) + 1
                obs = re.sub(r" at \S+", "", f["observed"] or "")
                t["unconfirmed_observed"][obs] = t["unconfirmed_observed"].get(obs, 0) + 1
            t["pairs"] += f["inputs"]
            locs.add((f["kind"], f["file"], f["line"], f["column"]))
            if f["kind"] in ("fp-overflow", "fp-underflow"):
                t["xflows"][f["kind"]] = t["xflows"].get(f["kind"], 0) + 1
                if f["avoidable"] is not None:
                    av = t["avoidable"].setdefault(f["kind"], {"avoidable": 0, "known": 0})
                    av["known"] += 1
                    av["avoidable"] += 1 if f["avoidable"] else 0
        for o in r["other"]:
            k = o.split(" at ")[0]
            t["other_findings"][k] = t["other_findings"].get(k, 0) + 1
    t["locations"] = len(locs)
    return t


def report(rows, other, runs, errs, a):
    t = totals(rows, runs, a)
    lines = []
    lines.append(f"{t['functions']} scalar gsl_sf_* functions in {t['files']} files, "
                 f"{a.time_per_function:g} s per function; {t['functions_with_exceptions']} with exceptions")
    lines.append("exceptions: " + ", ".join(f"{k} {t['by_kind'][k]}" for k in KINDS))
    lines.append(("not replayed (--no-replay): " if a.no_replay else "confirmed by native replay: ")
                 + f"{t['confirmed']} of {t['confirmed'] + t['unconfirmed']}"
                 + (f" ({t['without_replay']} functions without replay.json)" if t["without_replay"] else ""))
    if t["unconfirmed"]:
        lines.append("  not confirmed: " + ", ".join(f"{n} {k}" for k, n in sorted(t["unconfirmed_where"].items()))
                     + "; natively: " + ", ".join(f"{n}x {k}" for k, n in sorted(t["unconfirmed_observed"].items())))
    if t["other_findings"]:
        lines.append("other findings (not exceptions): " + ", ".join(f"{k} {n}" for k, n in sorted(t["other_findings"].items())))
    for k in ("fp-overflow", "fp-underflow"):
        av = t["avoidable"].get(k)
        ref = ARIADNE["table6"][k]
        mine = f"{av['avoidable']} of {av['known']} classified" if av else "not classified (no `avoidable` field)"
        lines.append(f"avoidable {k}: {mine} ({t['xflows'].get(k, 0)} in all); "
                     f"Ariadne Table 6: {ref['avoidable']} of {ref['total']}")
    lines.append(f"[locations, pairs]: [{t['locations']}, {t['pairs']}]; Ariadne: 2091 input-to-location pairs "
                 f"over {ARIADNE['functions']} functions (Table 5, loop bound infinity, shared: "
                 f"{ARIADNE['table5_infinity_shared']})")
    lines.append(f"explored to the end: {t['functions_exhausted']} (complete, no incomplete check: "
                 f"{t['functions_complete']}, of which without exceptions: {t['functions_complete_no_exception']}; "
                 f"verdict verified: {t['functions_verified']}); "
                 f"Ariadne: no timeout 363, all paths explored 136, no exception 45")
    if any("until_stats" in r for r in rows):
        lines.append(f"time per phase: exploration {t['engine_seconds']:.0f} s, after it until stats.json (xflow "
                     f"classification) {t['after_engine_before_stats_seconds']:.0f} s, replay {t['replay_seconds']:.0f} s")
    hours = lambda x: f"{x / 3600:.2f} h" if x >= 360 else f"{x / 60:.1f} min"
    lines.append(f"time: {hours(t['wall_seconds'])} wall on one process ({hours(t['engine_seconds'])} in "
                 f"the engine); Ariadne: {ARIADNE['hours']} h on {ARIADNE['cores']} cores")
    if other:
        found = sum(sum(r["by_kind"].values()) for r in other)
        conf = sum(r["confirmed"] for r in other)
        lines.append(f"also analysed, left out of the totals: {len(other)} functions ({found} exceptions, "
                     f"{conf} confirmed; other findings: {sum(r['other_findings'] for r in other)}), e.g. "
                     + "; ".join(f"{r['function']} ({r['left_out']})" for r in sorted(other, key=lambda r: r["function"])[:4]))
    if errs:
        counts = {}
        for e in errs:
            msg = re.sub(r"\(see [^)]*\)", "(see ...)", e["message"])
            counts[msg] = counts.get(msg, []) + [e["function"] or os.path.basename(e["file"])]
        lines.append(f"errors ({len(errs)}):")
        for msg, where in sorted(counts.items(), key=lambda x: -len(x[1])):
            lines.append(f"  {len(where)}x {msg}  [{', '.join(where[:6])}{', ...' if len(where) > 6 else ''}]")
    return t, "\n".join(lines)


def event_summary(rows):
    agg = {}
    for r in rows:
        for e in r["events"]:
            k = (e["event"], e["detail"])
            c, fns = agg.get(k, (0, set()))
            agg[k] = (c + e["count"], fns | {r["function"]})
    return [{"event": k[0], "detail": k[1], "count": c, "functions": len(f)}
            for k, (c, f) in sorted(agg.items(), key=lambda x: (-len(x[1][1]), x[0]))]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--fpsym", default=os.path.join(root, "target", "release", "fpsym"),
                    help="the fpsym binary (default target/release/fpsym)")
    ap.add_argument("--time-per-function", type=float, default=10,
                    help="fpsym's --max-time-per-function (default 10 s: 597 functions, about 2 h with replay)")
    ap.add_argument("--files", action="append", help="only specfunc files matching this glob (e.g. 'bessel_J*.c'); repeatable")
    ap.add_argument("--limit", type=int, help="only the first N files (after --files)")
    ap.add_argument("--out", default=os.path.join(root, "target", "bench", "gsl-exceptions"),
                    help="results: summary.json, summary.md, logs/, runs/ (default target/bench/gsl-exceptions)")
    ap.add_argument("--cache", default=os.path.join(root, "target", "bench-cache", "gsl"),
                    help="GSL's source, bitcode and symbol index (default target/bench-cache/gsl, git-ignored)")
    ap.add_argument("--compile-jobs", type=int, default=2, help="parallel clang-14 for the one-time bitcode index")
    ap.add_argument("--file-timeout-base", type=float, default=300,
                    help="a file's fpsym process is killed after BASE + N*(2*T + SLACK) s (N functions, T per function)")
    ap.add_argument("--replay-slack", type=float, default=60, help="see --file-timeout-base (default 60)")
    ap.add_argument("--fpsym-arg", action="append", default=[], help="extra argument for fpsym (repeatable)")
    ap.add_argument("--no-replay", action="store_true",
                    help="leave out --replay (a load check: nothing is confirmed, exit 0 unless setup fails)")
    ap.add_argument("--all-signatures", action="store_true",
                    help="count functions with array, coefficient or workspace parameters in the totals too "
                         "(by default they are analysed but left out, as Ariadne analysed scalar functions)")
    ap.add_argument("--resume", action="store_true",
                    help="reuse the files already run in --out with the same fpsym, time and replay setting "
                         "(OUT/runs/FILE.run.json): an interrupted sweep goes on, a finished one is only reported")
    ap.add_argument("--setup-only", action="store_true", help="fetch, configure, index; list the files and stop")
    a = ap.parse_args()
    # A terminated sweep stops its fpsym run too (that runs in its own session).
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))

    try:
        src = fetch(os.path.abspath(a.cache))
        configure(src)
        idx = index(src, os.path.abspath(a.cache), a.compile_jobs)
    except SetupError as e:
        log(f"setup failed: {e}")
        return 2
    targets = [f for f in lib_sources(src, "specfunc") if f in idx]
    if a.files:
        targets = [f for f in targets if any(fnmatch.fnmatch(os.path.basename(f), g) for g in a.files)]
    if a.limit is not None:
        targets = targets[:a.limit]
    n_fn = sum(len(idx[f]["functions"]) for f in targets)
    log(f"{len(targets)} specfunc files, {n_fn} external functions "
        f"({sum(1 for f in targets for n in idx[f]['functions'] if n.startswith('gsl_sf_'))} gsl_sf_*); "
        f"at {a.time_per_function:g} s each: at most {n_fn * a.time_per_function / 3600:.2f} h of exploration")
    if a.setup_only:
        for f in targets:
            deps, conflicts = closure(f, idx)
            print(f"{f}: {len(idx[f]['functions'])} functions, {len(deps)} bitcode dependencies"
                  + (f", CONFLICTS {conflicts}" if conflicts else ""))
        return 0
    if not os.path.isfile(a.fpsym):
        log(f"no fpsym binary at {a.fpsym} (cargo build --release, or --fpsym target/debug/fpsym)")
        return 2
    os.makedirs(a.out, exist_ok=True)
    rows, other, runs, errs = [], [], [], []
    protos = prototypes(src)
    for i, target in enumerate(targets):
        meta = os.path.join(os.path.abspath(a.out), "runs", os.path.basename(target)[:-2] + ".run.json")
        run = load_json(meta) if a.resume else None
        if run and (run.get("time_per_function"), run.get("fpsym"), run.get("replay")) != \
                (a.time_per_function, a.fpsym, not a.no_replay):
            run = None
        if run:
            log(f"[{i + 1}/{len(targets)}] {target}: done before ({meta})")
        else:
            log(f"[{i + 1}/{len(targets)}] {target}: {len(idx[target]['functions'])} functions")
            run = run_file(a, src, target, idx, os.path.abspath(a.out))
            run.update(time_per_function=a.time_per_function, fpsym=a.fpsym, replay=not a.no_replay)
            with open(meta, "w") as f:
                json.dump(run, f)
        names = sorted(os.listdir(os.path.join(run["dir"], "functions"))) \
            if os.path.isdir(os.path.join(run["dir"], "functions")) else []
        file_rows = [function_result(n, os.path.join(run["dir"], "functions", n), run) for n in names]
        for e in errors_of(run, names):
            e["file"] = target
            errs.append(e)
        for r in file_rows:
            r["not_scalar"] = protos.get(r["function"])
            if not r["function"].startswith("gsl_sf_"):
                r["left_out"] = "not gsl_sf_*"
            elif r["not_scalar"] and not a.all_signatures:
                r["left_out"] = f"not scalar: {r['not_scalar']}"
            (other if r.get("left_out") else rows).append(r)
        runs.append({k: run[k] for k in ("file", "deps", "conflicts", "candidates", "exit", "killed", "wall")})
        if file_rows:
            print(table(file_rows).split("\n", 1)[1] if i else table(file_rows), flush=True)
        else:
            print(f"{os.path.basename(target)}: no function analysed (exit {run['exit']}; see {a.out}/logs)", flush=True)
    t, text = report(rows, other, runs, errs, a)
    print()
    print(text)
    events = event_summary(rows + other)
    summary = {"time_per_function": a.time_per_function, "fpsym": a.fpsym, "totals": t, "ariadne": ARIADNE,
               "functions": rows, "other_functions": other, "runs": runs, "errors": errs, "events": events}
    json.dump(summary, open(os.path.join(a.out, "summary.json"), "w"), indent=1)
    with open(os.path.join(a.out, "summary.md"), "w") as f:
        f.write("# GSL special functions: fpsym exceptions\n\n```\n" + text + "\n```\n\n```\n" + table(rows) + "\n```\n")
        if events:
            f.write("\n## Engine events (events.jsonl), by number of functions\n\n| event | detail | count | functions |\n"
                    "|---|---|---|---|\n")
            for e in events:
                f.write(f"| {e['event']} | {e['detail']} | {e['count']} | {e['functions']} |\n")
    log(f"wrote {a.out}/summary.json and summary.md")
    if a.no_replay:
        return 0
    bad = t["unconfirmed"] + sum(r["unconfirmed"] for r in other) + \
        sum(1 for r in rows + other if not r["replay"] and sum(r["by_kind"].values()))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
