# Every target creates and uses .venv itself: a fresh clone needs nothing else.
#
# The install is editable and compiled with mypyc (setup.py): the engine, board, content, rulesets
# and ai layers run as C extensions, and any edit to them is rebuilt by the next `make` target.
# For an edit-test loop without rebuilds, use the pure-Python build (identical results):
#   KROSBALANCE_PURE=1 make test     # reinstalls pure once; then `.venv/bin/python -m pytest ...`
# and `make build` (or any target without KROSBALANCE_PURE) goes back to the compiled build.
#
# The native core (the Rust crate in core/, module krosbalance_core) is built into the venv by maturin
# when cargo is on PATH, for either build, and rebuilt when its sources change. Without cargo the
# install goes on without it and says so in one line: the Python reference engine plays.
PYTHON ?= python3
# Two jobs: on a fresh clone the package's mypyc compilation, the core's cargo build and the crate's tests
# overlap (each has a single-threaded stretch); every pip install into the venv stays one after another.
MAKEFLAGS += -j2
VENV := .venv
BIN := $(VENV)/bin
HOT_LAYERS := engine board content rulesets ai
# every module of those layers, subpackages included (setup.py compiles the same set)
HOT_SOURCES := $(shell find $(addprefix krosbalance/,$(HOT_LAYERS)) -name '*.py')

ifneq ($(filter-out 0,$(KROSBALANCE_PURE)),)
BUILD := pure
export KROSBALANCE_PURE
STAMP_DEPS := pyproject.toml setup.py
else
BUILD := compiled
unexport KROSBALANCE_PURE
STAMP_DEPS := pyproject.toml setup.py krosbalance/build_info.py $(HOT_SOURCES)
endif
STAMP := $(VENV)/.installed-$(BUILD)
BASE := $(VENV)/.base
# The native core: a cargo release build through maturin, installed beside the package (either build).
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
PGO_MARK := $(VENV)/.profile-guided
# pyproject.toml's lists, read by the Python that made the venv
EXTRA = $$($(BIN)/python -c "import tomllib; \
	print(' '.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['optional-dependencies']['$(1)']))")
BUILD_REQUIRES = $$($(BIN)/python -c "import tomllib; \
	print(' '.join(tomllib.load(open('pyproject.toml', 'rb'))['build-system']['requires']))")
CORE_BUILD_REQUIRES = $$($(BIN)/python -c "import tomllib; \
	print(' '.join(tomllib.load(open('core/pyproject.toml', 'rb'))['build-system']['requires']))")

.PHONY: core-tests run test build build-pgo bench battery lint format clean notebook membench browser tune docs

# The venv and the build requirements (maturin too when cargo is on PATH), so that the two compilations
# below can start from it at the same time.
$(BASE): pyproject.toml core/pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --disable-pip-version-check $(BUILD_REQUIRES) wheel $(if $(CARGO),$(CORE_BUILD_REQUIRES))
	touch $@

# The package and its run-time dependencies only (what `make run` needs), compiled once. The build
# requirements go into the venv first and pip builds there (--no-build-isolation): a second, isolated
# environment with its own mypy and numpy would only cost a first run time.
$(STAMP): $(STAMP_DEPS) | $(BASE)
	rm -f $(VENV)/.installed-* $(PGO_MARK)
	@echo "installing the $(BUILD) build (compiling takes a minute or two)"
	$(BIN)/pip install --quiet --disable-pip-version-check --no-build-isolation -e .
	touch $@

# The native core, when cargo is on PATH: maturin builds the crate's wheel (cargo release build in
# core/target, incremental after the first) while mypyc compiles the package (make runs two jobs, and
# neither writes to the venv); pip installs the wheel after the package. The package is an order-only
# prerequisite, so reinstalling it does not rebuild the core.
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
	$(BIN)/pip install --quiet --disable-pip-version-check --no-deps --force-reinstall $(CORE_DIST)/*.whl
	touch $@
else
$(CORE_STAMP): | $(STAMP)
	@rm -f $(VENV)/.core-installed
	@$(BIN)/pip uninstall --quiet --yes krosbalance-core >/dev/null 2>&1 || true
	@echo "warning: cargo is not on PATH, so the native core (krosbalance_core) is missing: the Python reference engine plays"
	@touch $@
endif

# What the tests, the linters and the benchmark need on top (no second compilation), and the core
# (order-only: a rebuilt core does not reinstall the dev extras, but every target on this stamp gets it).
$(DEV_STAMP): $(STAMP) pyproject.toml | $(CORE_STAMP)
	$(BIN)/pip install --quiet --disable-pip-version-check $(call EXTRA,dev)
	touch $@

build: $(STAMP) $(CORE_STAMP)

# The compiled build, profile-guided (setup.py: GCC compiles twice around a training run of seeded
# matches; about 1.07x faster matches for twice the compile time). The next rebuild after an edit of
# a compiled source is the plain build again.
build-pgo: $(STAMP) $(CORE_STAMP)
	KROSBALANCE_PGO=1 $(BIN)/pip install --quiet --disable-pip-version-check --no-build-isolation -e .
	touch $(PGO_MARK)

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
	$(BIN)/pip install --quiet --disable-pip-version-check --no-deps --force-reinstall $(CORE_PGO)/instrumented/*.whl
	LLVM_PROFILE_FILE="$(abspath $(CORE_PGO))/training/%m_%p.profraw" $(BIN)/python -m krosbalance.tools.core_training
	$(LLVM_PROFDATA) merge -o $(CORE_PGO)/merged.profdata $(CORE_PGO)/training
	RUSTFLAGS="-Cprofile-use=$(abspath $(CORE_PGO))/merged.profdata" $(CORE_MATURIN) \
		--target-dir core/target/pgo-use --out $(CORE_DIST)
	$(BIN)/pip install --quiet --disable-pip-version-check --no-deps --force-reinstall $(CORE_DIST)/*.whl
	touch $(CORE_WHEEL) $(CORE_STAMP)
else
core-pgo: $(CORE_STAMP)
	@echo "warning: rustc's llvm-profdata is missing (rustup component add llvm-tools): the core is built without a profile"
endif

# The `notebooks` extra's packages alone: reinstalling the package would compile it again.
$(NOTEBOOK_STAMP): $(STAMP)
	$(BIN)/pip install --quiet --disable-pip-version-check $(call EXTRA,notebooks)
	touch $(NOTEBOOK_STAMP)

# The documentation site (mkdocs.yml, docs/): the `docs` extra's packages alone, then a strict build
# into site/ (a warning fails it). The reference pages are generated from the installed package at
# build time (docs/gen/reference.py), so the build needs the package itself. About 7 s.
DOCS_STAMP := $(VENV)/.docs-installed
$(DOCS_STAMP): $(STAMP) pyproject.toml | $(DEV_STAMP)
	$(BIN)/pip install --quiet --disable-pip-version-check $(call EXTRA,docs)
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
# the wheel's release build for the folder's lock), compiled beside the package's build. Cargo runs
# its own jobs: MAKEFLAGS is cleared so that it does not look for make's job server.
core-tests:
	cd core && MAKEFLAGS= cargo test --quiet --target-dir target/crate-tests

# The whole suite on the installed build (compiled unless KROSBALANCE_PURE=1); its identity test also
# replays seeded matches of every AI on a pure copy of the sources and compares the event logs. The
# browser test must run here (KROSBALANCE_REQUIRE_BROWSER: a missing browser fails, never skips).
# With cargo, the crate's own tests run too (core-tests) and the suite requires the core (KROSBALANCE_EXPECT_CORE:
# a core that did not build fails tests/core/test_native.py instead of skipping the core's tests).
# The docs extra is installed too: tests/docs/ builds the site strictly (KROSBALANCE_REQUIRE_DOCS: a
# missing mkdocs fails, never skips) and runs the README's and the tutorial's Python blocks.
ifneq ($(CARGO),)
CORE_TESTS := core-tests
endif
test: $(CORE_TESTS) $(DEV_STAMP) $(DOCS_STAMP) browser
	KROSBALANCE_EXPECT_BUILD=$(BUILD) KROSBALANCE_PGO=$(if $(wildcard $(PGO_MARK)),1,0) \
		KROSBALANCE_EXPECT_CORE=$(if $(CARGO),1,0) \
		KROSBALANCE_REQUIRE_BROWSER=1 KROSBALANCE_REQUIRE_DOCS=1 $(BIN)/python -m pytest -q -n 2

battery: $(DEV_STAMP)
	$(BIN)/python -m pytest -q -n 2 -m slow
	$(BIN)/python -m krosbalance.tools.differential --matches 100000 --seed 20261206 --jobs 2

# Pure vs compiled vs the native core side by side (the pure build runs from a copy of the sources
# without extensions; two and four seats), the search tier (state copies per second, search AIs' seconds per match, both builds), the 2-job
# runner speed-up, the identity check and a perf profile of the compiled build.
# More: make bench BENCH_ARGS="--profile --rounds 3" (cProfile of the pure build, more rounds).
BENCH_ARGS ?=
bench: $(DEV_STAMP)
	$(BIN)/python -m krosbalance.tools.bench --ai random --ai focus_fire --ai kiter --ai kiter-2 \
		--ai objective --four focus_fire --four kiter \
		--search lookahead-fast --search lookahead --blast random --blast blast_glyph --duel duel_brawler \
		--speedup focus_fire --speedup-deals 24 --identity --perf $(BENCH_ARGS)

# Linting needs the tools, not a fresh build of an edited source.
$(BIN)/ruff:
	$(MAKE) $(DEV_STAMP)

lint: $(BIN)/ruff
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy $(addprefix krosbalance/,$(HOT_LAYERS)) krosbalance/build_info.py krosbalance/native.py
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
	rm -rf $(VENV) .pytest_cache build krosbalance__mypyc.* core/target
	find krosbalance -name '*.so' -delete
	rm -f krosbalance/_compiled_sources.json
