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

.PHONY: run test lint test-slow test-engines test-app test-e2e test-mypy test-part-engines test-part-browsers screenshots bench bots venv clean

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
# outputs printed whole as each ends (-O): the browsers (the longest part, started first),
# the engines, the app on each database of LAIR_TEST_DATABASES, and mypy. On the 2-core
# machine they keep both cores busy from start to end: only less CPU makes the suite shorter.
# TEST_JOBS=N also spreads each part over N processes (pytest-xdist; a file's tests stay
# together: module-scoped servers); measured on the 2-core machine, the whole tree at -n 4 was
# no faster and browser tests timed out under the contention, so not by default.
TEST_PARTS ?= 5
TEST_JOBS ?= 0
# --durations: each part's slowest tests, so a CI log shows where its time went.
PYTEST := $(BIN)/python -m pytest -q -p no:cacheprovider -m "not slow" --durations=20
XDIST = $(if $(filter 0,$(TEST_JOBS)),,-n $(TEST_JOBS) --dist loadfile)

# ruff first (a fraction of a second); mypy (~10 s of CPU, ~20 s on a busy machine) as one
# more part beside the tests: `make lint`'s commands.
# LAIR_E2E_QUICK=1: the browser tests take no screenshots, draw phones at 1x pixels and
# reduce motion unless a test asks for it (tests/chromium.py QUICK); E2E_QUICK=0 keeps them.
E2E_QUICK ?= 1

test: $(VENV)/.installed-test
	$(BIN)/ruff check .
	LAIR_E2E_QUICK=$(E2E_QUICK) $(MAKE) -j$(TEST_PARTS) -O test-part-browsers test-part-engines \
		$(APP_PARTS) test-mypy

# The renderers' browser tests (a tiny server in a thread, no database) run in `make test`
# after the engines' tests, in that part's process: the engines' part ended minutes before
# the browsers' part, which then ran alone on a core and a half. Both lists together are
# `make test-engines` and `make test-e2e`.
RENDERER_TESTS := tests/browser/test_covil_renderer.py tests/browser/test_drops_renderer.py \
	tests/browser/test_evil_corp_renderer.py
# Two browser files (the hints', with their own server and hard searches; the mid-match
# layouts) run in the first database's app part: once the app's database tests ran on one
# backend only, that part ended at 3.5 minutes and the browsers' part at 13 (clean-clone CI of
# 67a38ff); the hints' were a quarter of the latter, and with them moved (e2a3806) the parts
# ended at 6:44 (SQLite), 11:20, 11:35 and 13:13 (browsers). `make test-e2e` runs the folder.
# The phone's sticky bars and the desktop's seat panels (2026-12-07, ~100 s) joined them: with
# them in the browsers' part it ended at 14:20, the SQLite part at 10:08 (clean-clone CI).
E2E_BESIDE_APP := tests/browser/test_hints_table.py tests/browser/test_layout.py \
	tests/browser/test_phone_bars.py tests/browser/test_desk_panels.py

test-part-engines: $(VENV)/.installed-test
	$(PYTEST) $(XDIST) tests/engines tests/records tests/bench $(RENDERER_TESTS)

test-part-browsers: $(VENV)/.installed-test
	$(PYTEST) $(XDIST) tests/browser $(addprefix --ignore=,$(RENDERER_TESTS) $(E2E_BESIDE_APP))

test-mypy: $(VENV)/.installed-test
	$(BIN)/mypy app

# ruff (pyflakes, import order, the complexity budget) on the whole tree and mypy
# (--check-untyped-defs, the pydantic plugin: pyproject.toml) on app/.
lint: $(VENV)/.installed-test
	$(BIN)/ruff check .
	$(BIN)/mypy app

# The long runs kept out of `make test` (marked slow): whole matches played by clicks through
# the real server, the whole four-player Drops of Evil game of its renderer test, the hard
# bots' sweep.
test-slow: $(VENV)/.installed-test
	$(BIN)/python -m pytest -q -p no:cacheprovider -m slow tests

test-engines: $(VENV)/.installed-test
	$(PYTEST) $(XDIST) tests/engines tests/records tests/bench

comma := ,
APP_PARTS := $(addprefix test-app-,$(subst $(comma), ,$(LAIR_TEST_DATABASES)))

FIRST_DATABASE := $(firstword $(subst $(comma), ,$(LAIR_TEST_DATABASES)))

# The app's tests on the databases of LAIR_TEST_DATABASES (`make -j2 test-app`: side by side);
# test-app-sqlite, test-app-postgresql: on one. The tests that take no database run once, in
# the first database's part (tests/app/conftest.py, DATABASE_TESTS_ONLY); every database test
# on the primary backend of the whole list, the modules marked every_database on each (PRIMARY).
test-app: $(APP_PARTS)

test-app-%: $(VENV)/.installed-test
	LAIR_TEST_DATABASES=$* LAIR_TEST_LISTED_DATABASES=$(LAIR_TEST_DATABASES) \
	LAIR_TEST_DATABASE_TESTS_ONLY=$(if $(filter $*,$(FIRST_DATABASE)),0,1) \
	$(PYTEST) $(XDIST) tests/app $(if $(filter $*,$(FIRST_DATABASE)),$(E2E_BESIDE_APP))

test-e2e: $(VENV)/.installed-test
	$(PYTEST) $(XDIST) tests/browser

# Opens every page mid-match at phone and desktop sizes and refreshes docs/screenshots/.
screenshots: $(VENV)/.installed-test
	LAIR_SCREENSHOTS=docs/screenshots $(BIN)/python -m pytest tests/browser/test_layout.py \
		tests/browser/test_evil_corp_table.py tests/browser/test_hints_table.py \
		"tests/browser/test_full_match.py::test_a_bot_match_ends_on_a_finished_page_and_replay_with_names_only" \
		tests/browser/test_phone_bars.py tests/browser/test_desk_panels.py tests/browser/test_marks.py \
		-q -p no:cacheprovider

bench: $(VENV)/.installed-test
	$(BIN)/python bench/load.py

# Bot strength (bench/README.md, "Bots"): quick by default (<= 20 min); FULL=1 for the targets.
FULL ?=
bots: $(VENV)/.installed-test
	FULL=$(FULL) $(BIN)/python bench/bots.py

clean:
	rm -rf $(VENV) lair.db lair.db-wal lair.db-shm tests/browser/artifacts
