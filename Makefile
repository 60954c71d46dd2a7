# Every target sets itself up: a fresh clone needs only `make test` or `make run`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: setup test lint unit run bench clean

setup: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

test: setup lint unit

lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

unit: setup
	$(BIN)/pytest -q -n 2

# The referee arrives with its own issue; until then `make run` validates every bundled
# ruleset and plays a short simulation of each, which is the main job this code can do.
run: setup
	$(BIN)/bhabhi rules validate rules/*.yaml rules/house/*.yaml
	$(BIN)/bhabhi simulate --rules bhabho --players 4 --games 1000 --seed 1

bench: setup
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache var
