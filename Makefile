# Every target creates and uses .venv itself: a fresh clone needs nothing else.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

NOTEBOOK_STAMP := $(VENV)/.notebooks-installed

.PHONY: run test bench battery lint format clean notebook membench

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

$(NOTEBOOK_STAMP): $(STAMP)
	$(BIN)/pip install --quiet -e '.[dev,notebooks]'
	touch $(NOTEBOOK_STAMP)

# JupyterLab on the exploration notebook (it reads tests/fixtures/results-small unless
# KROSBALANCE_RESULTS names another run folder). Jupyter refuses root unless told: containers run as root.
notebook: $(NOTEBOOK_STAMP)
	$(BIN)/jupyter lab $(if $(filter 0,$(shell id -u)),--allow-root) notebooks/explore-results.ipynb

# Peak memory of `krosbalance run` and `krosbalance report` at 10k, 100k and 1M matches (~10 min).
membench: $(STAMP)
	$(BIN)/python -m krosbalance.sim.memory_bench --sizes 10000 100000 1000000

run: $(STAMP)
	$(BIN)/krosbalance run simulations/box-round-robin.toml --jobs 2 --out results/box-round-robin --resume
	$(BIN)/krosbalance report results/box-round-robin

test: $(STAMP)
	$(BIN)/python -m pytest -q -n 2

battery: $(STAMP)
	$(BIN)/python -m pytest -q -n 2 -m slow

bench: $(STAMP)
	$(BIN)/python -m krosbalance.sim.bench --ai random --ai focus_fire --ai kiter --ai objective --speedup focus_fire --profile

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy krosbalance/engine krosbalance/board krosbalance/content krosbalance/rulesets krosbalance/ai

format: $(STAMP)
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

clean:
	rm -rf $(VENV) .pytest_cache
