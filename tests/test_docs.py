"""The documentation site builds with warnings as errors, and the pages a reader needs are in it.

The build executes the four notebooks (myst-nb, a failing cell fails the build), writes the
command-line reference from the argument parsers and the API reference from the docstrings.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys

import pytest

from conftest import ROOT

#: One worker runs every test here (make test's --dist loadgroup), so the site is built once, and no two builds
#: write the API pages autosummary generates under docs/api at the same time.
pytestmark = pytest.mark.xdist_group("docs")


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    pytest.importorskip("sphinx")
    pytest.importorskip("myst_nb")
    out = tmp_path_factory.mktemp("docs")
    # API pages autosummary wrote for modules that have since moved or gone would fail the build (make docs too
    # starts from none)
    shutil.rmtree(ROOT / "docs" / "api", ignore_errors=True)
    proc = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",
                           "-d", str(out / "doctrees"), str(ROOT / "docs"), str(out / "html")],
                          capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stderr[-4000:]
    return out / "html"


def test_every_page_is_built(site):
    for page in ("index", "getting-started", "formulation", "samplers", "classical", "cloud", "input", "tuning",
                 "cli", "api", "results/index", "results/typical", "results/hard", "results/beyond",
                 "results/parallel", "results/generic", "results/design",
                 "notebooks/01_formulation", "notebooks/04_formulation_study"):
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
    assert "<table" in text and "TTS99" in text


def test_formulas_show_offline_and_options_paste_as_typed(site):
    """MathJax is served by the site itself (no CDN), and no option name is turned into an en dash."""
    page = (site / "formulation.html").read_text()
    sources = re.findall(r'<script[^>]+src="([^"]*mathjax[^"]*)"', page, flags=re.IGNORECASE)
    assert sources and not any(s.startswith(("http:", "https:", "//")) for s in sources), sources
    assert all((site / s.split("?")[0]).is_file() for s in sources), sources
    cli = (site / "cli.html").read_text()
    assert "--option" in cli and "\u2013option" not in cli
