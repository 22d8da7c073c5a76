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

.PHONY: run test lint test-slow test-engines test-app test-e2e screenshots bench bots venv clean

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

# The parts run side by side (TEST_PARTS=1: one after another), each in one process, their
# outputs printed whole as each ends (-O): the engines, the app on each database of
# LAIR_TEST_DATABASES, the browsers. They overlap well: the engines' part keeps one core busy
# while the app's and the browsers' parts mostly wait on servers, databases and sockets.
# TEST_JOBS=N also spreads each part over N processes (pytest-xdist; a file's tests stay
# together: module-scoped servers); measured on the 2-core machine, the whole tree at -n 4 was
# no faster and browser tests timed out under the contention, so not by default.
TEST_PARTS ?= 4
TEST_JOBS ?= 0
# --durations: each part's slowest tests, so a CI log shows where its time went.
PYTEST := $(BIN)/python -m pytest -q -p no:cacheprovider -m "not slow" --durations=8
XDIST = $(if $(filter 0,$(TEST_JOBS)),,-n $(TEST_JOBS) --dist loadfile)

# The linters first (seconds; the tree is clean under both): `make lint`'s commands.
test: $(VENV)/.installed-test
	$(BIN)/ruff check .
	$(BIN)/mypy app
	$(MAKE) -j$(TEST_PARTS) -O test-engines $(APP_PARTS) test-e2e

# ruff (pyflakes, import order, the complexity budget) on the whole tree and mypy
# (--check-untyped-defs, the pydantic plugin: pyproject.toml) on app/.
lint: $(VENV)/.installed-test
	$(BIN)/ruff check .
	$(BIN)/mypy app

# The long runs kept out of `make test` (marked slow): whole browser matches at 3-4 players.
test-slow: $(VENV)/.installed-test
	$(BIN)/python -m pytest -q -p no:cacheprovider -m slow tests

test-engines: $(VENV)/.installed-test
	$(PYTEST) $(XDIST) tests/engines tests/records tests/bench

comma := ,
APP_PARTS := $(addprefix test-app-,$(subst $(comma), ,$(LAIR_TEST_DATABASES)))

# The app's tests on every database of LAIR_TEST_DATABASES (`make -j2 test-app`: side by side);
# test-app-sqlite, test-app-postgresql: on one.
test-app: $(APP_PARTS)

test-app-%: $(VENV)/.installed-test
	LAIR_TEST_DATABASES=$* $(PYTEST) $(XDIST) tests/app

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
