# Tongits Online. `make run` serves the site at http://127.0.0.1:8000 (and runs its background
# worker); `make test` tests it.

PY ?= $(shell command -v python3.11 >/dev/null 2>&1 && echo python3.11 || echo python3)
VENV := .venv
PYTHON := $(VENV)/bin/python
PYTEST_ARGS ?=

# Playwright's pip package must never fetch browsers: tests use the system Chromium.
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD := 1

.PHONY: install run test lint format bench bench-live

install: $(VENV)/.installed

$(VENV)/.installed: requirements.txt
	test -x $(PYTHON) || $(PY) -m venv $(VENV)
	$(PYTHON) -m pip install --quiet -r requirements.txt
	touch $@

# runserver, not daphne: with daphne in INSTALLED_APPS it serves ASGI (WebSockets too)
# and adds autoreload and static files in DEBUG.
# The background worker (the coach's analyses) runs beside the server and stops with it.
run: install
	$(PYTHON) manage.py migrate
	$(PYTHON) manage.py db_worker & worker=$$!; \
	trap 'kill $$worker 2>/dev/null' EXIT INT TERM; \
	$(PYTHON) manage.py runserver 127.0.0.1:8000

# The slowest tests are listed at the end, to keep the suite's time in view. The suite runs
# in TEST_WORKERS processes (pytest-xdist), a test file to each at a time: most of its
# time is browsers and servers waiting, so two processes on two cores take about half.
# Each process has its own test database and channel prefix. TEST_WORKERS=0: one process.
TEST_WORKERS ?= 2
test: install
	$(PYTHON) -m pytest -n $(TEST_WORKERS) --dist loadfile --durations=15 $(PYTEST_ARGS)

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

format: install
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

bench: install
	$(PYTHON) -m bench.engine

# The site under live play: Daphne workers, WebSocket clients, its own database.
# make bench-live BENCH_ARGS="--tables 100 --think 1 --workers 2"
BENCH_ARGS ?=
bench-live: install
	$(PYTHON) -m bench.live $(BENCH_ARGS)
