# The front door: `make` alone lists what each target does. Everything the project needs is installed by these
# targets into .venv; the benchmarks behind the results pages are in benchmarks/Makefile (`make -C benchmarks help`).
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin

.DEFAULT_GOAL := help
.PHONY: help demo test install docs figures clean stale-results upgrade-fingerprints

help: ## this list
	@echo "qpicross: Picross puzzles as QUBO / Ising problems, solved by annealing. Targets:"
	@grep -E '^[a-z-]+:.*## ' $(firstword $(MAKEFILE_LIST)) | sed -E 's/^([a-z-]+):.*## /\1\t/' | \
	    awk -F'\t' '{ printf "  %-15s %s\n", $$1, $$2 }'
	@echo "  benchmarks      make -C benchmarks help: each benchmark, what it measures and how long it takes"

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# Re-install when pyproject.toml changes. Then one run on the 5x5 compiles the structured annealer's kernels into
# numba's cache (about 20 s, once), so that a user's first `qpicross anneal` does not wait for it.
WARM_KERNELS = $(BIN)/qpicross anneal instances/5x5.px --seed 1 --option threads=1 > /dev/null \
	|| echo "qpicross: the kernels were not compiled ahead; the first run will compile them"
$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	$(WARM_KERNELS)
	touch $@

# torch (for the 'sb' extra) goes in first as its CPU build, so the test install never pulls the
# CUDA packages (several GB) that an unpinned torch brings; pip finds the wheel through this machine's
# find-links. Elsewhere, set TORCH_CPU to a CPU torch your index offers.
TORCH_CPU ?= torch==2.13.0+cpu
$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet '$(TORCH_CPU)'
	$(BIN)/python -m pip install --quiet -e '.[test]'
	$(WARM_KERNELS)
	touch $@ $(VENV)/.installed

install: $(VENV)/.installed ## make .venv with qpicross installed, its kernels compiled (~2 min)

demo: $(VENV)/.installed ## anneal the shipped 5x5, with the default and with plain SA
	$(BIN)/qpicross anneal instances/5x5.px
	$(BIN)/qpicross anneal instances/5x5.px --sampler sa --reads 1000 --seed 1

# The whole suite, doctests included, on every core (pytest-xdist; TEST_WORKERS=1 runs it in one process). Tests
# marked xdist_group run in one worker (the docs build: its fixture builds the site once).
TEST_WORKERS ?= auto
test: $(VENV)/.installed-test ## the whole test suite, doctests, notebooks and docs build included
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadgroup

# The documentation site, warnings as errors (the notebooks are executed as it builds; about a minute here):
# open docs/_build/html/index.html. tests/test_docs.py runs the same build.
docs: $(VENV)/.installed-test ## the documentation site into docs/_build/html (~1 min)
	rm -rf docs/_build docs/api
	$(BIN)/sphinx-build -W --keep-going -q -b html docs docs/_build/html
	@echo "built docs/_build/html/index.html"

# The README's and the results pages' figures (about a minute and a half on 2 cores; the pages' own, drawn from
# results/ alone by benchmarks/page_figures.py, take seconds). The scaling plot reads results/bench_*.json
# where `make bench` wrote them (else measures instances/); FIGURE_ARGS="--results FILE..." names others.
figures: $(VENV)/.installed-test ## the README's and the docs' figures from results/ (~1.5 min)
	$(BIN)/python -m benchmarks.figures figures $(FIGURE_ARGS)
	$(BIN)/python -m benchmarks.page_figures figures

# What today's code would reproduce: every results file's samples fingerprints drawn again (seconds once the kernels
# are compiled) and each file listed as current (same samples from the same seeds) or changed (re-run it).
stale-results: $(VENV)/.installed-test ## list every results/*.json as current or changed (under a minute)
	$(BIN)/python -m benchmarks.stale results

upgrade-fingerprints: $(VENV)/.installed-test ## stamp results files an older probe version stamped, at their commits
	$(BIN)/python -m benchmarks.stale results --upgrade

clean: ## remove the environment, builds and caches
	rm -rf $(VENV) build *.egg-info .pytest_cache docs/_build docs/api docs/jupyter_execute

# Any other target is a benchmark's (bench-*, schedule-*, readme, ...): benchmarks/Makefile runs it.
Makefile benchmarks/Makefile pyproject.toml: ;
%:
	@$(MAKE) --no-print-directory -f benchmarks/Makefile $@
