# Everything the project needs is installed by these targets into .venv.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin

.PHONY: demo test install figures clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# Re-install when pyproject.toml changes.
$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@ $(VENV)/.installed

install: $(VENV)/.installed

demo: $(VENV)/.installed
	$(BIN)/qpicross anneal instances/5x5.px --reads 1000

test: $(VENV)/.installed-test
	$(BIN)/python -m pytest

# The README's figures (about a minute on 2 cores). FIGURE_ARGS=--results FILE plots a
# `qpicross bench --json FILE` results file instead of measuring the shipped puzzles.
figures: $(VENV)/.installed-test
	$(BIN)/python -m qpicross.figures figures $(FIGURE_ARGS)

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache
