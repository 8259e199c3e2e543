# Every target creates and uses .venv itself: a fresh clone needs nothing else.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test bench battery lint format clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/krosbalance run simulations/box-round-robin.toml --jobs 2 --out results/box-round-robin --resume
	$(BIN)/krosbalance report results/box-round-robin

test: $(STAMP)
	$(BIN)/python -m pytest -q -n 2

battery: $(STAMP)
	$(BIN)/python -m pytest -q -n 2 -m slow

bench: $(STAMP)
	$(BIN)/python -m krosbalance.sim.bench --ai random --ai focus_fire --ai kiter --ai objective --blast random --blast blast_glyph --speedup focus_fire --profile

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy krosbalance/engine krosbalance/board krosbalance/content krosbalance/rulesets krosbalance/ai

format: $(STAMP)
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

clean:
	rm -rf $(VENV) .pytest_cache
