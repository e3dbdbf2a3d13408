#!/usr/bin/env bash
# `make bench`: fpsym's backends over the QF_FP corpus, 10 s per file.
# Override: FPSYM_CORPUS=dir, SOLVERS=z3, TIMEOUT=10, JOBS=1.
set -euo pipefail
cd "$(dirname "$0")/.."
exec python3 bench/solve_corpus.py --solvers "${SOLVERS:-z3}" --timeout "${TIMEOUT:-10}" --jobs "${JOBS:-1}" "$@"
