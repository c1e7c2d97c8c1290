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

.PHONY: install run cluster test lint typecheck pytest pytest-compiled pytest-server pytest-web pytest-pure durations bench system-deps clean native-background

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
# the pure one (the reference, and what runs without a compiler).  The
# compiled pass is two pytest processes side by side: the browser tests
# (tests/web: Playwright's sync API runs an event loop of its own, which an
# async server test run after it in the same worker would meet) and the rest.
# Each has more workers than the machine has cores: a browser test or a real
# server's test spends much of its time waiting for chromium or a socket.
# Each worker takes the next test of one shared queue when it is free
# (`--dist load --maxschedchunk 1`), the queue ordered longest first from
# tests/durations.json (tests/longest_first.py): the long tests start early,
# spread over the workers, and the run ends on short ones that every worker
# shares.  `make durations` records the file again after tests change much.
PYTEST_WORKERS ?= 3
PYTEST_WEB_WORKERS ?= 3
PYTEST_DIST := --dist load --maxschedchunk 1
EXPECT_NATIVE = FREEZEOUT_EXPECT_NATIVE=$$(test -f $(NATIVE) && echo 1)
pytest:
	$(MAKE) --no-print-directory -j3 pytest-server pytest-web pytest-pure

pytest-compiled: pytest-server pytest-web

pytest-server: install system-deps
	$(EXPECT_NATIVE) $(VENV)/bin/pytest -n $(PYTEST_WORKERS) $(PYTEST_DIST) --ignore=tests/web $(PYTEST_FLAGS)

# Its own record of what failed (`pytest tests/web --lf -o cache_dir=.pytest_cache/web`):
# two processes writing one record at once would lose one's failures.
pytest-web: install system-deps
	$(EXPECT_NATIVE) $(VENV)/bin/pytest -n $(PYTEST_WEB_WORKERS) $(PYTEST_DIST) -o cache_dir=.pytest_cache/web \
		tests/web $(PYTEST_FLAGS)

# The pure pass computes and never waits (some 25 s of CPU): one process, run
# beside the compiled pass, whose workers leave a core free much of the time
# (no cache: the compiled pass keeps the record of what failed last).
pytest-pure: $(STAMP)
	FREEZEOUT_PURE=1 $(VENV)/bin/pytest -n 0 -q -p no:cacheprovider tests/rules

# Each test's seconds (setup and teardown included) into tests/durations.json,
# the order the compiled pass takes them in: run both compiled passes side by
# side as `make test` does, then commit the file.
durations:
	$(MAKE) --no-print-directory -j2 pytest-server pytest-web PYTEST_FLAGS=--record-durations

# The Debian packages, the compiled engine, the linter, the type checks and
# both passes of the tests share the two cores: the tests start as soon as
# the compiled engine is in place (none needs the linter's or the type
# checker's result), and make fails if any of them fails.
test:
	$(MAKE) --no-print-directory -j6 system-deps lint typecheck pytest-server pytest-web pytest-pure
