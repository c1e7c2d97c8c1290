# Freezeout — the commands a newcomer needs.  `make run` and `make test` work
# on a fresh machine: they create .venv and install what they need first.
# `make run` installs only what serving needs and serves at once on the pure
# rules engine while the compiled one builds in the background (used from the
# next start); `make test` installs everything (test and type-check tools too).
PYTHON ?= python3
HOST   ?= 127.0.0.1
PORT   ?= 8000
VENV   := .venv
PY     := $(VENV)/bin/python
PIP    := $(VENV)/bin/pip
RUN_STAMP := $(VENV)/.stamp-run
STAMP  := $(VENV)/.stamp-install
NATIVE := $(VENV)/freezeout-native/manifest.json
# What the native build needs beyond serving (mypyc ships with mypy): the same
# bounds as the dev extra in pyproject.toml.
NATIVE_DEPS := 'mypy>=1.8' 'setuptools>=68'
RULES_SOURCES := $(wildcard src/freezeout/rules/*.py) src/freezeout/native.py

.PHONY: install run cluster test lint typecheck pytest pytest-compiled pytest-pure durations bench system-deps clean native-background

# The runtime dependencies only (pyproject's [project] dependencies), without
# compiling every installed module to bytecode first (a third of pip's time):
# Python compiles the modules the server imports as it imports them.
$(RUN_STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PIP) install -q --no-compile -e .
	touch $(RUN_STAMP)

# Everything the tests, linters and type checks need on top.
$(STAMP): $(RUN_STAMP) pyproject.toml
	$(PIP) install -q --upgrade pip
	$(PIP) install -q -e '.[dev]'
	touch $(STAMP)

# The rules engine compiled with mypyc (src/freezeout/native.py): rebuilt
# whenever a rules module changes; without a C compiler the pure engine runs.
# The build is written to a temporary directory and moved into place whole,
# so a half-written build is never loaded.
$(NATIVE): $(STAMP) $(RULES_SOURCES)
	flock $(VENV)/.native-build.lock sh -c '$(PY) -m freezeout.native --check >/dev/null && touch $(NATIVE) || $(PY) -m freezeout.native build >/dev/null' \
		|| echo "note: the rules engine could not be compiled; running it pure"

install: $(STAMP) $(NATIVE)

# Debian packages the browser, PostgreSQL and Redis tests need (no browser download).
system-deps:
	@missing=""; \
	command -v chromium >/dev/null 2>&1 || missing="$$missing chromium"; \
	ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing="$$missing postgresql"; \
	command -v redis-server >/dev/null 2>&1 || missing="$$missing redis-server"; \
	if [ -n "$$missing" ]; then \
		if [ "$$(id -u)" = 0 ]; then \
			echo "installing Debian packages:$$missing"; \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
		else echo "note:$$missing missing and not root; those tests will be skipped"; fi; \
	fi

# Serve at once; the compiled engine builds beside it (log: .venv/native-build.log)
# unless it is up to date, and is used from the next start.
run: $(RUN_STAMP) native-background
	$(VENV)/bin/freezeout serve --host $(HOST) --port $(PORT)

# Start the native build in the background (one at a time: flock) when the
# build in place does not match the sources; never waits for it.
native-background: $(RUN_STAMP)
	@if ! $(PY) -m freezeout.native --check >/dev/null 2>&1; then \
		echo "compiling the rules engine in the background (serving on the pure engine meanwhile; log: $(VENV)/native-build.log)"; \
		nohup flock -n $(VENV)/.native-build.lock sh -c \
			"$(PIP) install -q $(NATIVE_DEPS) && $(PY) -m freezeout.native build" \
			>$(VENV)/native-build.log 2>&1 </dev/null & \
	fi

# A local cluster (docs/scaling.md): PostgreSQL, redis-server, 2 gateways (8000, 8001), 3 workers.
cluster: install system-deps
	$(VENV)/bin/freezeout cluster --gateways 2 --workers 3

lint: $(STAMP)
	$(VENV)/bin/ruff check src tests bench tools

typecheck: $(STAMP)
	$(VENV)/bin/mypy --strict src/freezeout/rules src/freezeout/evaluate src/freezeout/cards.py src/freezeout/formats \
		src/freezeout/cli.py src/freezeout/terminal src/freezeout/bots src/freezeout/server src/freezeout/analysis

# Everything against the compiled engine, and the rules tests again against
# the pure one (the reference, and what runs without a compiler).  Four
# workers on two cores: a browser test or a real server's test spends most of
# its time waiting for chromium or a socket, so two workers left the cores
# idle half the time.  Work stealing: the workers start with a share of the
# tests each and one that finishes first takes half of what another has left,
# so they end together however uneven the tests' lengths.  (Tried and
# dropped, stop 43: the browser tests and the rest as two processes, each
# worker taking the longest test left from one queue, `--dist load
# --maxschedchunk 1`: a module's tests then ran on every worker, and each
# worker started the module's server and browser again — a fresh clone's run
# was at an eighth of its tests after 17 minutes.)
PYTEST_WORKERS ?= 4
EXPECT_NATIVE = FREEZEOUT_EXPECT_NATIVE=$$(test -f $(NATIVE) && echo 1)
pytest:
	$(MAKE) --no-print-directory -j2 pytest-compiled pytest-pure

pytest-compiled: install system-deps
	$(EXPECT_NATIVE) $(VENV)/bin/pytest -n $(PYTEST_WORKERS) --dist worksteal $(PYTEST_FLAGS)

# The pure pass computes and never waits (some 25 s of CPU): one process, run
# beside the compiled pass, whose workers leave a core free much of the time
# (no cache: the compiled pass keeps the record of what failed last).
pytest-pure: $(STAMP)
	FREEZEOUT_PURE=1 $(VENV)/bin/pytest -n 0 -q -p no:cacheprovider tests/rules

# Each test's seconds (setup and teardown included) into tests/durations.json
# (what `--longest-first` orders by; `make test` does not use it yet).
durations:
	$(MAKE) --no-print-directory pytest-compiled PYTEST_FLAGS=--record-durations

# The Debian packages, the compiled engine, the linter, the type checks and
# both passes of the tests share the two cores: the tests start as soon as
# the compiled engine is in place (none needs the linter's or the type
# checker's result), and make fails if any of them fails.
test:
	$(MAKE) --no-print-directory -j5 system-deps lint typecheck pytest-compiled pytest-pure
