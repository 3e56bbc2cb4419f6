# The two set-up commands of the README: `make run` and `make test`. Each creates the virtual
# environment (.venv) on first use and reinstalls when pyproject.toml changes.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test test-postgres check lint typecheck pytest demo screenshot bench bench-quick package clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev,package,keyring]'
	touch $(STAMP)

run: $(STAMP)
	$(VENV)/bin/memory-dashboard $(ARGS)

demo: $(STAMP)
	$(VENV)/bin/memory-dashboard --demo

lint: $(STAMP)
	$(PY) -m ruff check app ui tests packaging resources
	$(PY) -m ruff format --check app ui tests packaging resources

typecheck: $(STAMP)
	$(PY) -m mypy

pytest: $(STAMP)
	QT_QPA_PLATFORM=offscreen $(PY) -m pytest $(PYTEST_ARGS)

test: lint typecheck pytest

# The PostgreSQL tests alone, in a throwaway cluster (tests/support/pg_cluster.py) started and stopped around them.
PG_TESTS := tests/store/test_conformance.py tests/store/test_postgres.py tests/store/observe/test_server_watch.py \
	tests/store/search/test_search_postgres.py tests/store/evidence tests/store/past/test_as_of.py \
	tests/store/past/test_blame.py tests/cli/test_cli_evidence.py tests/cli/test_history_views.py \
	tests/ui/window/test_window_postgres.py tests/ui/dialogs/test_window_runs.py tests/ui/history/test_blame_and_as_of_window.py
test-postgres: $(STAMP)
	QT_QPA_PLATFORM=offscreen $(PY) tests/support/pg_cluster.py run -- $(PY) -m pytest $(PG_TESTS) $(PYTEST_ARGS)

# The README's screenshots (light and dark) from a fresh demo store built at a fixed clock in a throwaway
# folder, never from your own demo store: the same images every time, whatever you did in `make demo`.
# `make screenshot SHOTS=DIR` writes them to DIR instead of docs/.
SHOTS ?= docs
SHOT_TIME := 2026-11-20T09:30:00Z
SHOT := $(VENV)/bin/memory-dashboard --demo screenshot --select 312 --size 1400x900 --force

# The store sits in build/screenshot-demo (ignored by git, removed after), a fixed relative path, since the
# status bar shows it.
SHOT_STORE := build/screenshot-demo

screenshot: $(STAMP)
	@mkdir -p "$(SHOTS)" && rm -rf $(SHOT_STORE)
	@trap 'rm -rf $(SHOT_STORE)' EXIT && \
	export QT_QPA_PLATFORM=offscreen MEMORY_DASHBOARD_NOW=$(SHOT_TIME) \
	  MEMORY_DASHBOARD_DATA_DIR=$(SHOT_STORE)/data XDG_CONFIG_HOME=$(SHOT_STORE)/config && \
	$(SHOT) "$(SHOTS)/screenshot.png" && \
	$(SHOT) "$(SHOTS)/screenshot-dark.png" --theme dark

# Benchmarks at 100,000 memories (several minutes) or 10,000 (`bench-quick`, under a minute).
bench: $(STAMP)
	QT_QPA_PLATFORM=offscreen $(PY) -m tests.bench.run --json bench-results.json

bench-quick: $(STAMP)
	QT_QPA_PLATFORM=offscreen $(PY) -m tests.bench.run --quick --json bench-results-quick.json

# Freeze the app for this OS, smoke-run the frozen binary and make its installer (packaging/README.md).
package: $(STAMP)
	$(PY) packaging/build.py $(PACKAGE_ARGS)

clean:
	rm -rf build dist .mypy_cache .pytest_cache .ruff_cache
