# The two set-up commands of the README: `make run` and `make test`. Each creates the virtual
# environment (.venv) on first use and reinstalls when pyproject.toml changes.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test check lint typecheck pytest demo screenshot bench bench-quick package clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev,package]'
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

# Freeze the app for this OS, smoke-run the frozen binary and make its installer (packaging/README.md).
package: $(STAMP)
	$(PY) packaging/build.py $(PACKAGE_ARGS)

clean:
	rm -rf build dist .mypy_cache .pytest_cache .ruff_cache
