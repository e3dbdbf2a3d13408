# fpsym: `make demo`, `make test`, `make bench`. Each first installs what is
# missing (scripts/bootstrap).

CARGO ?= cargo
FPSYM := target/release/fpsym

.PHONY: all bootstrap build demo test bench clean

all: build

bootstrap:
	@scripts/bootstrap

build: bootstrap
	$(CARGO) build --release --bin fpsym

demo: build
	@echo "== fpsym solve --model examples/smtlib/demo.smt2"
	@$(FPSYM) solve --model examples/smtlib/demo.smt2

test: bootstrap
	$(CARGO) test --workspace --no-fail-fast

bench: build
	bench/solve-corpus.sh

clean:
	$(CARGO) clean
