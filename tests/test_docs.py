"""The documentation site builds with warnings as errors, and the pages a reader needs are in it.

The build executes the five notebooks (myst-nb, a failing cell fails the build), writes the
command-line reference from the argument parsers and the API reference from the docstrings.
"""

from __future__ import annotations

import fcntl
import importlib.util
import os
import re
import subprocess
import sys

import pytest

from conftest import ROOT

#: make test's --dist loadgroup runs every test here on one worker, first (tests/conftest.py); should the group be
#: split all the same (pytest-xdist 3.8 with pytest 9.2 does, which pyproject.toml rules out), the fixture still
#: builds the site once (two builds at once write the same generated API pages under docs/api, and one then misses
#: pages the other is rewriting).
pytestmark = pytest.mark.xdist_group("docs")


def _module_exists(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except ImportError:
        return False


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The site, built once a run: the first worker to need it builds it under a lock, the others wait and read it."""
    pytest.importorskip("sphinx")
    pytest.importorskip("myst_nb")
    run_folder = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        run_folder = run_folder.parent  # the folder of the whole run, which its workers share
    out = run_folder / "docs-site"
    with open(run_folder / "docs-site.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (out / "built").is_file():
            for page in (ROOT / "docs" / "api").glob("*.rst"):  # a page an earlier build wrote for a module since
                if not _module_exists(page.stem):                # moved or gone fails it (make docs starts from none)
                    page.unlink(missing_ok=True)
            proc = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",
                                   "-d", str(out / "doctrees"), str(ROOT / "docs"), str(out / "html")],
                                  capture_output=True, text=True, timeout=900)
            assert proc.returncode == 0, proc.stderr[-4000:]
            (out / "built").touch()
    return out / "html"


def test_every_page_is_built(site):
    for page in ("index", "getting-started", "formulation", "samplers", "classical", "cloud", "input", "tuning",
                 "cli", "api", "results/index", "results/typical", "results/hard", "results/beyond",
                 "results/ladders",
                 "results/parallel", "results/generic", "results/design", "results/archive", "results/archive-gpu",
                 "results/formulation-frontier", "results/frontier-tournament", "results/qpu-embedding",
                 "notebooks/01_formulation", "notebooks/04_formulation_study", "notebooks/05_your_own_annealer"):
        assert (site / f"{page}.html").is_file(), page


def test_cli_reference_comes_from_the_parsers(site):
    text = (site / "cli.html").read_text()
    for flag in ("--reads", "--time-limit", "--scheduler", "--presolve", "--baseline", "--grid"):
        assert flag in text, flag


def test_api_reference_renders_the_docstrings(site):
    text = (site / "api" / "qpicross.model.formulation.html").read_text()
    assert "build_formulation" in text and "PenaltyWeights" in text


def test_notebooks_are_rendered_with_their_outputs(site):
    text = (site / "notebooks" / "01_formulation.html").read_text()
    assert re.search(r'<img[^>]+src="[^"]*\.png"', text), "no figure output in the formulation notebook"


def test_figures_and_generated_tables_reach_the_site(site):
    assert (site / "_images" / "solved_5x5.png").is_file()
    text = (site / "results" / "typical.html").read_text()
    assert "<table" in text and "TTS99" in text and "Measured at:" in text  # which commit measured each table
    assert (site / "_images" / "tts_size_typical.png").is_file()  # the figure the page opens with
    # results tables scroll in a box of their own rather than run off the page
    assert "_static/tables.css" in text and "overflow-x: auto" in (site / "_static" / "tables.css").read_text()


def test_formulas_show_offline_and_options_paste_as_typed(site):
    """MathJax is served by the site itself (no CDN), and no option name is turned into an en dash."""
    page = (site / "formulation.html").read_text()
    sources = re.findall(r'<script[^>]+src="([^"]*mathjax[^"]*)"', page, flags=re.IGNORECASE)
    assert sources and not any(s.startswith(("http:", "https:", "//")) for s in sources), sources
    assert all((site / s.split("?")[0]).is_file() for s in sources), sources
    cli = (site / "cli.html").read_text()
    assert "--option" in cli and "\u2013option" not in cli
    # issue 59, item 12: an example address is text, not a link (the page made tcp://HOST:8786 one)
    assert "tcp://HOST:8786" in cli and 'href="tcp://' not in cli
