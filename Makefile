# Sheepshead: the project's commands.
#
#   make run    install what serving needs, then serve the game (http://127.0.0.1:8000/)
#   make test   set up, install the browser, lint, then run the whole pytest suite
#
# Everything runs from .venv; nothing is installed into the system Python.
# Debian's Chromium is the only system package the project needs (for browser tests);
# it is never downloaded by Playwright.

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help
MAKEFLAGS += --no-builtin-rules

PYTHON      ?= python3
VENV        := .venv
BIN         := $(VENV)/bin
STAMP       := $(VENV)/.installed
# `make run` installs only what serving needs (the `serve` extra), with its own stamp;
# `make setup` (and so `make test`) installs everything, the dev tools included.
SERVE_STAMP := $(VENV)/.installed-serve
CHROMIUM    := /usr/bin/chromium
APT_PACKAGES := chromium fonts-noto-core
AXE         := tests/browser/axe/node_modules/axe-core/axe.min.js

# The suite runs on two pytest-xdist workers, one per core of the CI machine, a test
# file to a worker (its module fixtures, servers and databases are started once).
# `make test PYTEST_WORKERS=0` runs it in one process. Extra arguments for pytest,
# e.g. `make test PYTEST_ARGS="-k deal"`.
PYTEST_WORKERS ?= 2
PYTEST_ARGS ?=
# Extra arguments for `sheepshead serve`, e.g. `make run SERVE_ARGS="--port 8001"`.
SERVE_ARGS  ?=

# apt-get needs root; use sudo when not root (and when sudo exists).
SUDO := $(shell [ "$$(id -u)" = 0 ] || command -v sudo)
APT_GET := $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300

.PHONY: help setup native browser run lint test clean distclean

help:
	@echo "make setup    create .venv and install the project with its dev tools (idempotent)"
	@echo "make native   compile the search's hot modules with mypyc where their sources changed"
	@echo "make browser  install Debian's chromium + fonts if missing (apt-get), axe-core (npm ci)"
	@echo "make run      install what serving needs, then serve the game at http://127.0.0.1:8000/"
	@echo "make lint     ruff check, ruff format --check, mypy (strict), lint-imports"
	@echo "make test     setup + browser + lint + pytest (PYTEST_ARGS=... to pass options)"
	@echo "make clean    remove caches and build artifacts (distclean also removes .venv)"

# --- setup -----------------------------------------------------------------

# The search's hot modules compiled with mypyc (src/sheepshead/native.py): the tool
# builds only when a source changed since the last build, in seconds otherwise. A
# failed build is not fatal: the sources run as they are (the same play, slower), the
# server says so at start, and the suite's tests/bots/test_native.py fails.
NATIVE = $(BIN)/python tools/build_native.py || echo "native: the build failed; the bots run as plain Python"

setup: $(STAMP)
	@$(NATIVE)

native: setup

# Created only when missing. Order-only below, so an existing venv is never rebuilt.
$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# Reinstall only when pyproject.toml is newer than the stamp.
$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --progress-bar off -e '.[dev]'
	touch $@

# Only what serving needs. A full install (the stamp above) already has it.
$(SERVE_STAMP): pyproject.toml | $(BIN)/python
	@if [ -f $(STAMP) ] && [ $(STAMP) -nt pyproject.toml ]; then \
		echo "run: the full install already has what serving needs"; \
	else \
		$(BIN)/python -m pip install --quiet --upgrade pip; \
		$(BIN)/python -m pip install --progress-bar off -e '.[serve,native]'; \
	fi
	touch $@

# --- browser (for tests only) ------------------------------------------------

browser:
	@if [ -x $(CHROMIUM) ] && dpkg -s fonts-noto-core >/dev/null 2>&1; then \
		echo "browser: $$($(CHROMIUM) --version 2>/dev/null || echo $(CHROMIUM))"; \
	else \
		echo "browser: installing $(APT_PACKAGES) from Debian"; \
		$(APT_GET) update -q; \
		$(APT_GET) install -y -q --no-install-recommends $(APT_PACKAGES); \
		$(CHROMIUM) --version; \
	fi
	@# axe-core for the accessibility tests, pinned by tests/browser/axe/package-lock.json.
	@if [ ! -f $(AXE) ]; then \
		echo "browser: installing axe-core (npm ci in tests/browser/axe)"; \
		(cd tests/browser/axe && npm ci --no-audit --no-fund); \
	fi

# --- run -------------------------------------------------------------------

run: $(SERVE_STAMP)
	@$(NATIVE)
	$(BIN)/sheepshead serve $(SERVE_ARGS)

# --- lint ------------------------------------------------------------------

# Runs every check, then fails if any failed, so one run shows all problems.
lint: setup
	@status=0; \
	for cmd in "ruff check ." "ruff format --check ." "mypy" "lint-imports"; do \
		echo "+ $$cmd"; \
		$(BIN)/$$cmd || { echo "FAILED: $$cmd"; status=1; }; \
	done; \
	exit $$status

# --- test ------------------------------------------------------------------

# pytest exit 5 ("no tests collected") is a failure too.
test: setup browser lint
	@echo "+ pytest -n $(PYTEST_WORKERS) --dist loadfile $(PYTEST_ARGS)"; \
	rc=0; $(BIN)/pytest -n $(PYTEST_WORKERS) --dist loadfile $(PYTEST_ARGS) || rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "FAILED: pytest collected no tests"; exit 1; fi; \
	exit $$rc

# --- clean -----------------------------------------------------------------

clean:
	rm -rf build dist test-artifacts src/*.egg-info src/sheepshead/_native \
		.mypy_cache .ruff_cache .pytest_cache .hypothesis .import_linter_cache
	find . -path ./$(VENV) -prune -o -type d -name __pycache__ -exec rm -rf {} +

distclean: clean
	rm -rf $(VENV)
