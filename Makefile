# Freezeout — the commands a newcomer needs.  `make run` and `make test` work
# on a fresh machine: they create .venv and install everything first.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
PIP    := $(VENV)/bin/pip
STAMP  := $(VENV)/.stamp-install
NATIVE := $(VENV)/freezeout-native/manifest.json

.PHONY: install run cluster test lint typecheck pytest bench system-deps clean

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PIP) install -q --upgrade pip
	$(PIP) install -q -e '.[dev]'
	touch $(STAMP)

# The rules engine compiled with mypyc (src/freezeout/native.py): rebuilt
# whenever a rules module changes; without a C compiler the pure engine runs.
$(NATIVE): $(STAMP) $(wildcard src/freezeout/rules/*.py) src/freezeout/native.py
	$(PY) -m freezeout.native build >/dev/null || echo "note: the rules engine could not be compiled; running it pure"

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

run: install
	$(VENV)/bin/freezeout serve --host 127.0.0.1 --port 8000

# A local cluster (docs/scaling.md): PostgreSQL, redis-server, 2 gateways (8000, 8001), 3 workers.
cluster: install system-deps
	$(VENV)/bin/freezeout cluster --gateways 2 --workers 3

lint: install
	$(VENV)/bin/ruff check src tests bench

typecheck: install
	$(VENV)/bin/mypy --strict src/freezeout/rules src/freezeout/evaluate src/freezeout/cards.py src/freezeout/formats \
		src/freezeout/cli.py src/freezeout/terminal src/freezeout/bots src/freezeout/server

# Everything against the compiled engine, then the rules and formats tests
# again against the pure one (the reference, and what runs without a compiler).
pytest: install system-deps
	FREEZEOUT_EXPECT_NATIVE=$$(test -f $(NATIVE) && echo 1) $(VENV)/bin/pytest -n 2
	FREEZEOUT_PURE=1 $(VENV)/bin/pytest -n 2 -q tests/rules tests/formats

test: lint typecheck pytest

bench: install
	$(PIP) install -q -e '.[bench]'
	$(PY) bench/run_all.py

clean:
	rm -rf $(VENV) build dist .pytest_cache .mypy_cache .ruff_cache
