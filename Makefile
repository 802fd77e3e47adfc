# The two commands a new user needs:  make site  and  make test.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
PIP    := $(BIN)/python -m pip --quiet --disable-pip-version-check
# apt needs root; use sudo when we are not root and it exists.
# The bundled demo league; the tests use their own copy (tests/fixtures/demo).
DEMO   := examples/northern-league
SUDO   := $(shell [ "$$(id -u)" = 0 ] || command -v sudo)

.PHONY: help site serve watch check test test-fast bench golden screenshots chromium clean

help:
	@echo "make site   build the demo league (examples/northern-league) into _site/ (sets up .venv on first use)"
	@echo "make serve  build, preview on http://127.0.0.1:8000/ and rebuild as files change"
	@echo "make watch  the same without the server (rebuilds _site/ as files change)"
	@echo "make check  validate the data without building"
	@echo "make test   install test tools (and Debian's chromium) and run every test, on every core"
	@echo "make test-fast  the quick loop while working: every test not marked slow (no browser, server or watcher)"
	@echo "make bench  time full builds and watch-mode rebuilds on 300- and 1,000-event archives, and against Hugo"

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(PIP) install -e .
	@touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(PIP) install -e '.[test]'
	@touch $@

site: $(VENV)/.installed
	$(BIN)/site-builder build --source $(DEMO) --out _site

serve: $(VENV)/.installed
	$(BIN)/site-builder serve --source $(DEMO)

watch: $(VENV)/.installed
	$(BIN)/site-builder watch --source $(DEMO)

check: $(VENV)/.installed
	$(BIN)/site-builder check --source $(DEMO)

# Browser tests drive Debian's Chromium; Playwright's own browser download does not work here.
chromium:
	@command -v chromium >/dev/null 2>&1 || { \
	  echo "Installing Debian's chromium for the browser tests (about a minute)…"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq chromium >/dev/null \
	  || echo "Could not install chromium: browser tests will be skipped."; }

# -n auto: one pytest worker per core (pytest-xdist); each test file's tests stay together.
test: $(VENV)/.installed-test chromium
	$(BIN)/python -m pytest -n auto --dist loadfile

# The quick loop: everything but the tests marked slow (see pyproject.toml's markers).
test-fast: $(VENV)/.installed-test
	$(BIN)/python -m pytest -n auto --dist loadfile -m "not slow"

# Writes bench/results.json; the synthetic archives (300 and 1,000 events) are generated once
# into bench/archive/. Then, where the workplace's Hugo anchor and Hugo are there, the ratios
# against Hugo on its 1,000-event archive (full build, a new process after one correction,
# --help) in the same run.
HUGO_RATIO := ../shared/bench/hugo_ratio.py
bench: $(VENV)/.installed
	$(BIN)/python bench/run.py
	@if [ -f $(HUGO_RATIO) ] && command -v hugo >/dev/null 2>&1; then \
	  python3 $(HUGO_RATIO) --site-builder $(BIN)/site-builder --runs 3; \
	else echo "(no $(HUGO_RATIO) or no hugo here: the ratios against Hugo are not measured)"; fi

# The demo's output as tests/build/test_golden.py expects it: run after a change to the pages is meant.
golden: $(VENV)/.installed
	rm -rf tests/golden/demo
	$(BIN)/site-builder build --clean --source tests/fixtures/demo --out tests/golden/demo
	rm -f tests/golden/demo.state

# The desk's screenshots in docs/images/ (docs/running-an-event.md), taken by its browser tests.
screenshots: $(VENV)/.installed-test chromium
	SITE_BUILDER_SCREENSHOTS=1 $(BIN)/python -m pytest -q tests/desk/test_desk_browser.py -k screenshots

clean:
	rm -rf _site .pytest_cache
