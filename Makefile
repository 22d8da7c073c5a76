# Lair: `make run` serves the site on http://127.0.0.1:8000; `make test` runs every test.
# `lair serve` (app/serve.py) starts uvicorn with the server options from the settings (README).
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
# permessage-deflate costs a third of the server's CPU per move and ~35 KB per socket, for
# views of a few KB (bench/README.md): off unless asked for (`make run WS_DEFLATE=true`).
WS_DEFLATE ?= false
# Database tests run on each of these backends (PostgreSQL at LAIR_TEST_PG).
LAIR_TEST_DATABASES ?= sqlite,postgresql
export LAIR_TEST_DATABASES

.PHONY: run test lint test-engines test-app test-e2e screenshots bench bots venv clean

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

$(VENV)/.installed-run: pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e '.[test]'
	touch $@ $(VENV)/.installed-run

venv: $(VENV)/.installed-run

run: $(VENV)/.installed-run
	$(BIN)/alembic upgrade head
	HOST=$(HOST) PORT=$(PORT) WS_DEFLATE=$(WS_DEFLATE) $(BIN)/lair serve

# TEST_JOBS=N spreads each part over N processes (pytest-xdist; a file's tests stay together:
# module-scoped servers). Measured on the 2-core machine: the whole tree at -n 4 took 23 min,
# no faster than one process, and browser tests timed out under the contention; so one process
# by default.
TEST_JOBS ?= 0
PYTEST := $(BIN)/python -m pytest -q -p no:cacheprovider
XDIST = $(if $(filter 0,$(TEST_JOBS)),,-n $(TEST_JOBS) --dist loadfile)

# The linters first (seconds; the tree is clean under both): `make lint`'s commands.
test: $(VENV)/.installed-test
	$(BIN)/ruff check .
	$(BIN)/mypy app
	$(MAKE) test-engines test-app test-e2e

# ruff (pyflakes, import order, the complexity budget) on the whole tree and mypy
# (--check-untyped-defs, the pydantic plugin: pyproject.toml) on app/.
lint: $(VENV)/.installed-test
	$(BIN)/ruff check .
	$(BIN)/mypy app

test-engines: $(VENV)/.installed-test
	$(PYTEST) $(XDIST) tests/engines

test-app: $(VENV)/.installed-test
	$(PYTEST) $(XDIST) tests/app tests/records

test-e2e: $(VENV)/.installed-test
	$(PYTEST) $(XDIST) tests/browser

# Opens every page mid-match at phone and desktop sizes and refreshes docs/screenshots/.
screenshots: $(VENV)/.installed-test
	LAIR_SCREENSHOTS=docs/screenshots $(BIN)/python -m pytest tests/browser/test_layout.py \
		tests/browser/test_evil_corp_table.py -q -p no:cacheprovider

bench: $(VENV)/.installed-test
	$(BIN)/python bench/load.py

# Bot strength (bench/README.md, "Bots"): quick by default (<= 20 min); FULL=1 for the targets.
FULL ?=
bots: $(VENV)/.installed-test
	FULL=$(FULL) $(BIN)/python bench/bots.py

clean:
	rm -rf $(VENV) lair.db lair.db-wal lair.db-shm tests/browser/artifacts
