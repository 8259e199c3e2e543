# Every target creates and uses .venv itself: a fresh clone needs nothing else.
#
# The package installs editable and runs as plain Python (the reference engine): an edit to it is
# live at once, with nothing to rebuild. The native core (the Rust crate in core/, module
# krosbalance_core), which plays bulk runs, is built into the venv by maturin when cargo is on PATH
# and rebuilt when its sources change, so a first build is one cargo build. Without cargo the
# install goes on without it and says so in one line: the Python reference engine plays.
# (Until issue 41 the package was also compiled with mypyc; `make bench` still measures a throwaway
# mypyc copy of the sources, built on demand in a cache folder outside the venv.)
PYTHON ?= python3
# Three jobs: on a fresh clone the core's release build and the crate's tests (a debug build) overlap,
# each with a single-threaded stretch, beside the installs (mostly unpacking: the browser's Debian
# packages, the extras' wheels). Every pip install into the venv takes the venv's lock ($(PIP)), so
# two never run at once whatever make starts together.
MAKEFLAGS += -j3
VENV := .venv
BIN := $(VENV)/bin
# the layers `mypy --strict` checks in `make lint` (tests/test_typing.py too)
TYPED_LAYERS := engine board content rulesets ai
STAMP := $(VENV)/.installed
# pip into the venv, one at a time (flock, util-linux): make may start two installs together
PIP := flock $(VENV)/.pip-lock $(BIN)/pip install --quiet --disable-pip-version-check
BASE := $(VENV)/.base
# The native core: a cargo release build through maturin, installed beside the package.
CARGO := $(shell command -v cargo 2>/dev/null)
CORE_SOURCES := $(shell find core/src -name '*.rs') core/Cargo.toml core/Cargo.lock core/build.rs \
	core/pyproject.toml
ifneq ($(CARGO),)
CORE_STAMP := $(VENV)/.core-installed
CORE_WHEEL := $(VENV)/.core-wheel
CORE_DIST := $(VENV)/core-dist
else
CORE_STAMP := $(VENV)/.core-missing
endif
DEV_STAMP := $(VENV)/.dev-installed
NOTEBOOK_STAMP := $(VENV)/.notebooks-installed
# pyproject.toml's lists, read by the Python that made the venv
EXTRA = $$($(BIN)/python -c "import tomllib; \
	print(' '.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['optional-dependencies']['$(1)']))")
BUILD_REQUIRES = $$($(BIN)/python -c "import tomllib; \
	print(' '.join(tomllib.load(open('pyproject.toml', 'rb'))['build-system']['requires']))")
CORE_BUILD_REQUIRES = $$($(BIN)/python -c "import tomllib; \
	print(' '.join(tomllib.load(open('core/pyproject.toml', 'rb'))['build-system']['requires']))")

.PHONY: core-tests run test build bench battery lint format clean notebook membench browser tune docs

# The venv and the build requirements (maturin too when cargo is on PATH), so that the core's build
# below can start from it while the package installs.
$(BASE): pyproject.toml core/pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(PIP) $(BUILD_REQUIRES) wheel $(if $(CARGO),$(CORE_BUILD_REQUIRES))
	touch $@

# The package and its run-time dependencies only (what `make run` needs): an editable install of
# plain Python, built in the venv (--no-build-isolation: no second environment to set up). A source
# tree that an older, mypyc-compiled install left extension modules in would import them instead of
# the sources (Python prefers an extension to a .py of the same name): they are removed first.
$(STAMP): pyproject.toml | $(BASE)
	rm -f $(VENV)/.installed-* $(VENV)/.profile-guided krosbalance/_compiled_sources.json krosbalance__mypyc.*.so
	find krosbalance -name '*.so' -delete
	$(PIP) --no-build-isolation -e .
	touch $@

# The native core, when cargo is on PATH: maturin builds the crate's wheel (cargo release build in
# core/target, incremental after the first) while pip installs the package and the extras (make runs
# several jobs, and maturin does not write to the venv); pip installs the wheel after the package. The package is an
# order-only prerequisite, so reinstalling it does not rebuild the core.
# Without cargo: the core is removed (it could not follow its sources) and one line says so.
ifneq ($(CARGO),)
$(CORE_WHEEL): $(CORE_SOURCES) | $(BASE)
	@echo "building the native core (cargo release build: about a minute the first time)"
	rm -rf $(CORE_DIST)
	MAKEFLAGS= $(BIN)/maturin build --quiet --release --interpreter $(BIN)/python --manifest-path core/Cargo.toml \
		--out $(CORE_DIST)
	touch $@

$(CORE_STAMP): $(CORE_WHEEL) | $(STAMP)
	rm -f $(VENV)/.core-missing
	$(PIP) --no-deps --force-reinstall $(CORE_DIST)/*.whl
	touch $@
else
$(CORE_STAMP): | $(STAMP)
	@rm -f $(VENV)/.core-installed
	@$(BIN)/pip uninstall --quiet --yes krosbalance-core >/dev/null 2>&1 || true
	@echo "warning: cargo is not on PATH, so the native core (krosbalance_core) is missing: the Python reference engine plays"
	@touch $@
endif

# What the tests, the linters and the benchmark need on top (mypy among them: `make lint`, and the
# benchmark's mypyc copy), installed while the core builds; and the core
# (order-only: a rebuilt core does not reinstall the dev extras, but every target on this stamp gets it).
EXTRAS_STAMP := $(VENV)/.dev-extras-installed
$(EXTRAS_STAMP): $(STAMP) pyproject.toml
	$(PIP) $(call EXTRA,dev)
	touch $@

$(DEV_STAMP): $(EXTRAS_STAMP) | $(CORE_STAMP)
	touch $@

build: $(STAMP) $(CORE_STAMP)

# The native core, profile-guided (LLVM PGO; core/README.md has the measurements): an instrumented
# release build (a target folder of its own), installed and trained on seeded matches
# (krosbalance.tools.core_training: the heuristic AIs, four players, a few mcts-race), the profile
# merged by rustc's own llvm-profdata (rustup's llvm-tools: an older system one cannot read rustc's
# profiles), the release build again with the profile (a second target folder), installed as the
# venv's core (the crate's build scripts, instrumented too, write theirs to `unused`). About twice
# the plain build's CPU time (140 CPU s from nothing against 62); the next edit of the core's sources
# goes back to the plain build. Without rustc's llvm-profdata: one line, and the plain build.
# Self-contained on purpose: not in the path of `make build`, `make run` or `make test`.
CORE_PGO := core/target/pgo
LLVM_PROFDATA := $(if $(CARGO),$(shell p="$$(rustc --print sysroot 2>/dev/null)/lib/rustlib/$$(rustc -vV 2>/dev/null \
	| sed -n 's/^host: //p')/bin/llvm-profdata"; test -x "$$p" && echo "$$p"))
CORE_MATURIN = MAKEFLAGS= $(BIN)/maturin build --quiet --release --interpreter $(BIN)/python \
	--manifest-path core/Cargo.toml
.PHONY: core-pgo
ifneq ($(LLVM_PROFDATA),)
core-pgo: $(STAMP) | $(BASE)
	@echo "building the native core profile-guided (two release builds around a training run)"
	rm -rf $(CORE_PGO) $(CORE_STAMP) $(CORE_DIST)
	RUSTFLAGS="-Cprofile-generate=$(abspath $(CORE_PGO))/unused" $(CORE_MATURIN) \
		--target-dir core/target/pgo-generate --out $(CORE_PGO)/instrumented
	$(PIP) --no-deps --force-reinstall $(CORE_PGO)/instrumented/*.whl
	LLVM_PROFILE_FILE="$(abspath $(CORE_PGO))/training/%m_%p.profraw" $(BIN)/python -m krosbalance.tools.core_training
	$(LLVM_PROFDATA) merge -o $(CORE_PGO)/merged.profdata $(CORE_PGO)/training
	RUSTFLAGS="-Cprofile-use=$(abspath $(CORE_PGO))/merged.profdata" $(CORE_MATURIN) \
		--target-dir core/target/pgo-use --out $(CORE_DIST)
	$(PIP) --no-deps --force-reinstall $(CORE_DIST)/*.whl
	touch $(CORE_WHEEL) $(CORE_STAMP)
else
core-pgo: $(CORE_STAMP)
	@echo "warning: rustc's llvm-profdata is missing (rustup component add llvm-tools): the core is built without a profile"
endif

# The `notebooks` extra's packages alone.
$(NOTEBOOK_STAMP): $(STAMP)
	$(PIP) $(call EXTRA,notebooks)
	touch $(NOTEBOOK_STAMP)

# The documentation site (mkdocs.yml, docs/): the `docs` extra's packages alone, then a strict build
# into site/ (a warning fails it). The reference pages are generated from the installed package at
# build time (docs/gen/reference.py), so the build needs the package itself. About 7 s.
DOCS_STAMP := $(VENV)/.docs-installed
$(DOCS_STAMP): $(STAMP) pyproject.toml | $(EXTRAS_STAMP)
	$(PIP) $(call EXTRA,docs)
	touch $@

docs: $(DOCS_STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict

# JupyterLab on the exploration notebook (it reads tests/fixtures/results-small unless
# KROSBALANCE_RESULTS names another run folder). Jupyter refuses root unless told: containers run as root.
notebook: $(NOTEBOOK_STAMP)
	$(BIN)/jupyter lab $(if $(filter 0,$(shell id -u)),--allow-root) notebooks/explore-results.ipynb

# Peak memory of `krosbalance run` and `krosbalance report` at 10k, 100k and 1M matches (~10 min).
membench: $(DEV_STAMP)
	$(BIN)/python -m krosbalance.tools.memory_bench --sizes 10000 100000 1000000

# Tune kiter-2's weights by self-play against kiter-2 and write them as kiter-3 to
# krosbalance/ai/data/tuned.toml (Optuna TPE, seed 18, 11,200 matches: ~14 CPU min pure, one core).
TUNE_ARGS ?= --trials 40 --deals 60 --finalists 4 --final-deals 100 --seed 18 --write kiter-3
tune: $(DEV_STAMP)
	$(BIN)/python -m krosbalance.tools.tuning $(TUNE_ARGS)

# The run writes its report (and prints the answer) itself: one build of the report, not two.
run: $(STAMP) $(CORE_STAMP)
	$(BIN)/krosbalance run simulations/box-round-robin.toml --jobs 2 --out results/box-round-robin --resume \
		--report-out reports/box-round-robin

# Debian's headless Chromium and its driver, for the replay page's browser test and
# `python -m krosbalance.tools.screenshot` (installed once, when /usr/bin/chromium is missing).
APT_GET := $(if $(filter 0,$(shell id -u)),,sudo) env DEBIAN_FRONTEND=noninteractive apt-get
/usr/bin/chromium /usr/bin/chromedriver &:
	@echo "installing Debian's chromium and chromium-driver (the replay page's browser test)"
	$(APT_GET) update -qq
	$(APT_GET) install -y -qq --no-install-recommends chromium chromium-driver

browser: /usr/bin/chromium /usr/bin/chromedriver

# The crate's own tests (a debug build in a target folder of its own, so that it does not wait on
# the wheel's release build for the folder's lock), compiled beside the wheel's build. Cargo runs
# its own jobs: MAKEFLAGS is cleared so that it does not look for make's job server.
core-tests:
	cd core && MAKEFLAGS= cargo test --quiet --target-dir target/crate-tests

# The whole suite, on the package (plain Python) and the core. The browser test must run here (KROSBALANCE_REQUIRE_BROWSER: a missing browser fails, never skips).
# With cargo, the crate's own tests run too (core-tests) and the suite requires the core (KROSBALANCE_EXPECT_CORE:
# a core that did not build fails tests/core/test_native.py instead of skipping the core's tests).
# The docs extra is installed too: tests/docs/ builds the site strictly (KROSBALANCE_REQUIRE_DOCS: a
# missing mkdocs fails, never skips) and runs the README's and the tutorial's Python blocks.
ifneq ($(CARGO),)
CORE_TESTS := core-tests
endif
# Two workers that steal each other's queued tests (--dist worksteal): a test of a minute queued
# behind one worker no longer ends the run alone on it. The slowest tests are listed at the end.
PYTEST_N := -n 2 --dist worksteal
test: $(CORE_TESTS) $(DEV_STAMP) $(DOCS_STAMP) browser
	KROSBALANCE_EXPECT_CORE=$(if $(CARGO),1,0) KROSBALANCE_REQUIRE_BROWSER=1 KROSBALANCE_REQUIRE_DOCS=1 \
		$(BIN)/python -m pytest -q $(PYTEST_N) --durations=15

battery: $(DEV_STAMP)
	$(BIN)/python -m pytest -q $(PYTEST_N) -m slow
	$(BIN)/python -m krosbalance.tools.differential --matches 100000 --seed 20261206 --jobs 2

# The reference, the mypyc build and the native core side by side (two and four seats, Blast, Duel),
# the search tier (state copies per second, search AIs' seconds per match, reference and mypyc), the
# 2-job runner speed-up and a perf profile of the mypyc build. The speed bars are written against
# the mypyc build, which the package no longer is: --mypyc builds a throwaway mypyc copy of the
# current sources in ~/.cache/krosbalance/mypyc (once per version of the sources, a few minutes, and
# it says so; KROSBALANCE_MYPYC_CACHE moves it) and reuses it after. Without the mypyc column:
#   make bench BENCH_MYPYC=
# More: make bench BENCH_ARGS="--profile --rounds 3" (cProfile of the reference, more rounds).
BENCH_ARGS ?=
BENCH_MYPYC ?= --mypyc --perf
bench: $(DEV_STAMP)
	$(BIN)/python -m krosbalance.tools.bench --ai random --ai focus_fire --ai kiter --ai kiter-2 \
		--ai objective --four focus_fire --four kiter \
		--search lookahead-fast --search lookahead --blast random --blast blast_glyph --blast blast_brawler \
		--duel duel_brawler \
		--speedup focus_fire --speedup-deals 24 $(BENCH_MYPYC) $(BENCH_ARGS)

# Linting needs the tools, not a fresh build of an edited source.
$(BIN)/ruff:
	$(MAKE) $(DEV_STAMP)

lint: $(BIN)/ruff
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy $(addprefix krosbalance/,$(TYPED_LAYERS)) krosbalance/native.py
ifneq ($(CARGO),)
	cd core && MAKEFLAGS= cargo fmt --check
	cd core && MAKEFLAGS= cargo clippy --quiet --all-targets -- -D warnings
endif

format: $(BIN)/ruff
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .
ifneq ($(CARGO),)
	cd core && MAKEFLAGS= cargo fmt
endif

clean:
	rm -rf $(VENV) .pytest_cache build core/target
