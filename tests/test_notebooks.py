"""Every notebook in notebooks/ runs top to bottom without an error (a failing cell fails the build)."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import ROOT

NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


def test_the_four_notebooks_are_there():
    names = [p.name for p in NOTEBOOKS]
    assert names == ["01_formulation.ipynb", "02_penalty_tuning.ipynb", "03_scaling.ipynb",
                     "04_formulation_study.ipynb"]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_runs(path: Path):
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    notebook = nbformat.read(path, as_version=4)
    # Stored without outputs, so the repository stays small and diffs stay readable.
    assert all(not cell.get("outputs") for cell in notebook.cells if cell.cell_type == "code")
    client = nbclient.NotebookClient(notebook, timeout=120, kernel_name="python3",
                                     resources={"metadata": {"path": str(path.parent)}})
    client.execute()  # raises CellExecutionError, naming the cell, when one fails
    errors = [out for cell in notebook.cells if cell.cell_type == "code"
              for out in cell.outputs if out.output_type == "error"]
    assert errors == []
