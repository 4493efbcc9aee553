"""The notebooks in notebooks/: the five of them, stored without outputs (tests/test_docs.py runs them)."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import ROOT

NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


def test_the_five_notebooks_are_there():
    names = [p.name for p in NOTEBOOKS]
    assert names == ["01_formulation.ipynb", "02_penalty_tuning.ipynb", "03_scaling.ipynb",
                     "04_formulation_study.ipynb", "05_your_own_annealer.ipynb"]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_is_stored_without_outputs(path: Path):
    """Stored without outputs, so the repository stays small and diffs stay readable. The docs build
    (tests/test_docs.py) executes every notebook top to bottom; a failing cell fails it."""
    nbformat = pytest.importorskip("nbformat")
    notebook = nbformat.read(path, as_version=4)
    assert all(not cell.get("outputs") for cell in notebook.cells if cell.cell_type == "code")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_reads_without_a_warning(path: Path):
    """Issue 59, item 6: every run printed nbformat's MissingIDFieldWarning (cells of notebook 05 had no id)."""
    import warnings

    import nbformat

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # MissingIDFieldWarning, or any other, fails the read
        notebook = nbformat.read(path, as_version=4)
    nbformat.validate(notebook)
    assert all(cell.get("id") for cell in notebook.cells)


def test_the_notebooks_extra_brings_jupyterlab():
    """Issue 59, item 6: no extra brought Jupyter, so `jupyter lab` was missing after
    `pip install -e '.[notebooks]'`; the docs extra runs the notebooks without it."""
    import re
    import tomllib

    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    names = {key: {re.split(r"[<>=!~ \[]", spec)[0].lower() for spec in specs} for key, specs in extras.items()}
    assert {"jupyterlab", "nbclient", "nbformat", "ipykernel"} <= names["notebooks"]
    assert {"nbclient", "nbformat", "ipykernel"} <= names["docs"] and "jupyterlab" not in names["docs"]
