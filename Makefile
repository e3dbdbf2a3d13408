# fpsym: `make demo`, `make test`, `make bench`. Each first installs what is
# missing (scripts/bootstrap; `make test` and `make book` also mdbook);
# `make test` and `make demo` then check that every tool and library they
# need is there (scripts/check-tools names the Debian package of anything
# missing and stops). `make man`, `make book` and `make cli-reference`
# generate the documentation from the CLI's clap definitions and docs/.

CARGO ?= cargo
FPSYM := target/release/fpsym

.PHONY: all bootstrap bootstrap-book check-tools build demo lint test test-fast man cli-reference book bench bench-conformance bench-search bench-exceptions bench-batch clean

all: build

bootstrap:
	@scripts/bootstrap

bootstrap-book:
	@scripts/bootstrap --book

check-tools: bootstrap
	@scripts/check-tools

build: bootstrap
	$(CARGO) build --release --bin fpsym

demo: check-tools build
	@echo "== fpsym solve --model examples/smtlib/demo.smt2"
	@$(FPSYM) solve --model examples/smtlib/demo.smt2
	@echo
	@echo "== fpsym run examples/c/assoc.c -o target/demo-run --replay --coverage"
	@rm -rf target/demo-run
	@$(FPSYM) run examples/c/assoc.c -o target/demo-run --replay --coverage; \
	  code=$$?; [ $$code -le 1 ] || [ $$code -eq 4 ] || exit $$code

# Style: formatting and clippy's lints (Cargo.toml lists the few allowed),
# warnings as errors. `make test` runs it first. Clippy checks in the `ci`
# profile, which `make test` builds next: the build scripts, their outputs
# (bindgen's bindings of libz3 and LLVM) and the proc macros are built once
# for both (in the dev profile, with debug info, clippy alone took longer
# than the whole test build).
lint: bootstrap
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --profile ci --workspace --all-targets -- -D warnings

# crates/cli/tests/docs.rs builds the book with mdbook (and checks its
# links, the CLI reference, the man pages and the README's example).
# Both run in the `ci` profile (Cargo.toml): release optimisation with
# integer overflow checked, so that one build serves the tests and the
# conformance suite (`--workspace` in both: the same features, so nothing
# is built again).
test: check-tools bootstrap-book lint
	$(CARGO) test --profile ci --workspace --no-fail-fast
	$(CARGO) test --profile ci --workspace --test conformance -- --ignored --skip full_suite

# The fast tier, for a developer's loop: every crate's unit tests, the
# end-to-end tests of the libraries below the CLI (no CLI test spawns
# fpsym here) and the engine's core from IR text (fpsym_engine::testkit,
# no clang); `make test` runs everything.
test-fast: check-tools
	$(CARGO) test --workspace --lib --bins
	$(CARGO) test -p fpsym-float -p fpsym-expr -p fpsym-smtlib -p fpsym-report -p fpsym-render -p fpsym-frontend --tests
	$(CARGO) test -p fpsym-engine --test core
	$(CARGO) test -p fpsym-prove --test prove --test native

# Man pages (target/man/fpsym.1, fpsym-run.1, ...; `man -l target/man/fpsym-run.1`)
# and bash/zsh/fish completions (target/completions), from crates/cli/src/args.rs.
man: bootstrap
	$(CARGO) build --release --bin fpsym-docs
	target/release/fpsym-docs man target/man
	target/release/fpsym-docs completions target/completions
	@echo "man pages in target/man, completions in target/completions"

# The book's CLI reference page, from the same definitions (the docs test
# fails while it is stale).
cli-reference:
	$(CARGO) build --release --bin fpsym-docs
	target/release/fpsym-docs markdown docs/src/reference/cli.md

# The book, into target/book (index.html).
book: bootstrap-book cli-reference
	mdbook build docs --dest-dir $(CURDIR)/target/book
	@echo "the book: target/book/index.html"

# The conformance suite in full: every modelled operation against native
# execution on edge values in every rounding mode (prints cases run and
# mismatches).
bench-conformance: check-tools
	$(CARGO) test --release -p fpsym --test conformance -- --ignored --exact full_suite --nocapture

# Benchmarks (not timed tests); results are ratios within one run.
#   corpus:     every backend (cp, z3, portfolio, sequential portfolio, z3 and
#               cvc5 binaries, Bitwuzla if `pip install bitwuzla`) over
#               ../shared/bench/smtlib/qf_fp, 10 s per file
#   chain:      cache + independence vs the bare portfolio on dichotomic's
#               path series and on an executor's query stream
#   run:        concrete execution speed of `fpsym run` vs native -O0
#   examples:   every examples/c program with run + replay + coverage
#   dichotomic: seed 000 Table II for cp (with/without ULP-Max) and z3
#   critical:   seed 001 critical-value queries, cp and z3, 60 s per query
#   transcendental: targets behind sin/exp/log/pow/..., --libm symbolic vs
#               --libm concretize in one run, 60 s per program
bench: build
	SOLVERS=all,portfolio-seq,bitwuzla-direct bench/solve-corpus.sh
	python3 bench/chain/dichotomic_series.py --series paths
	python3 bench/chain/dichotomic_series.py --series executor --repeat 1
	python3 bench/run/concrete_speed.py
	python3 bench/examples.py
	python3 bench/cp/dichotomic.py --timeout 30
	python3 bench/cp/gen_critical.py target/bench/critical
	python3 bench/solve_corpus.py --solvers cp,z3 --timeout 60 --corpus target/bench/critical --labels none --csv target/bench-critical.csv
	python3 bench/transcendental/run.py

# Search power on held-out programs in the shapes of the KLEE-Float suites
# (bench/run/shapes: bugs found, safe programs fully explored, wrong
# answers; about 12 minutes), and `fpsym error` on FPGen's benchmark built
# from the upstream Meschach and GSL sources (fetched from Debian once).
bench-search: build
	python3 bench/run/shapes.py --time 60
	bash bench/error/upstream/fetch.sh
	python3 bench/error/upstream/make_programs.py
	python3 bench/error/upstream/check.py --time 10

# GNU GSL's special functions under `fpsym exceptions` (seed 003's
# benchmark; fetches Debian's gsl source package once; about 1.5 hours
# at 4 s per function).
bench-exceptions: build
	python3 bench/exceptions/gsl_sweep.py --time-per-function 4 --fpsym-arg=--search --fpsym-arg=random-path+coverage-new

# The same GSL functions through `fpsym batch`: --jobs 1 vs --jobs 2 wall
# time, per-function times, findings by kind, 2 shards merged vs unsharded
# (bench/batch/README.md).
bench-batch: build
	python3 bench/batch/gsl_batch.py --time-per-function 3

clean:
	$(CARGO) clean
