# Freezeout — the commands a newcomer needs.  `make run` and `make test` work
# on a fresh machine: they create .venv and install everything first.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
PIP    := $(VENV)/bin/pip
STAMP  := $(VENV)/.stamp-install

.PHONY: install run test lint typecheck pytest bench system-deps clean

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PIP) install -q --upgrade pip
	$(PIP) install -q -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

# Debian packages the browser and PostgreSQL tests need (no browser download).
system-deps:
	@if ! command -v chromium >/dev/null 2>&1 || ! command -v initdb >/dev/null 2>&1 && ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then \
		if [ "$$(id -u)" = 0 ]; then \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium postgresql >/dev/null; \
		else echo "note: chromium/postgresql missing and not root; their tests will be skipped"; fi; \
	fi

run: install
	$(VENV)/bin/freezeout serve --host 127.0.0.1 --port 8000

lint: install
	$(VENV)/bin/ruff check src tests bench

typecheck: install
	$(VENV)/bin/mypy --strict src/freezeout/rules src/freezeout/evaluate src/freezeout/cards.py src/freezeout/formats

pytest: install system-deps
	$(VENV)/bin/pytest -n 2

test: lint typecheck pytest

bench: install
	$(PIP) install -q -e '.[bench]'
	$(PY) bench/run_all.py

clean:
	rm -rf $(VENV) build dist .pytest_cache .mypy_cache .ruff_cache
