"""Sphinx configuration of the qpicross documentation (``make docs`` builds it into docs/_build/html).

Sphinx, because the docstrings are written for it (Google-style sections, Sphinx roles such as
:class:`...`), as those of dimod and dwave-samplers are: autodoc renders them as they are.
MyST reads the Markdown pages, myst-nb executes and renders the notebooks, sphinx-argparse
writes the command-line reference from the argument parsers themselves, furo is the theme.
"""

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # this checkout's qpicross, and benchmarks/ for its docstrings

import qpicross  # noqa: E402
import qpicross.cli  # noqa: E402

_build_parser = qpicross.cli.build_parser


def _parser_for_the_page():
    """qpicross's parser, its help read as reStructuredText by sphinx-argparse: an example address
    (``tcp://HOST:8786``) is escaped so that it is not made a link to nowhere; ``--help`` is unchanged."""
    import argparse

    parser = _build_parser()
    parsers, seen = [parser], set()
    while parsers:
        one = parsers.pop()
        if id(one) in seen:
            continue
        seen.add(id(one))
        for action in one._actions:
            if action.help and action.help is not argparse.SUPPRESS:
                action.help = action.help.replace("://", r"\://")
            if isinstance(action, argparse._SubParsersAction):
                parsers.extend(action.choices.values())
    return parser


qpicross.cli.build_parser = _parser_for_the_page  # what the argparse directive of cli.md calls

project = "qpicross"
author = "the qpicross developers"
copyright = "2026, the qpicross developers"
release = version = qpicross.__version__

extensions = [
    "myst_nb",  # Markdown pages (MyST) and notebooks
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.napoleon",  # the docstrings' Args:/Returns:/Raises: sections
    "sphinx.ext.mathjax",
    "sphinx-mathjax-offline",  # MathJax's files copied into the site: formulas show with no network
    "sphinx.ext.viewcode",
    "sphinxarg.ext",  # the CLI reference, from qpicross.cli.build_parser
    "sphinx_copybutton",
]

# .rst first: autosummary writes its generated API pages with the first suffix, and writes them in reST.
source_suffix = {".rst": "restructuredtext", ".md": "myst-nb", ".ipynb": "myst-nb"}
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store", "jupyter_execute"]
root_doc = "index"

# MyST: $math$, tables, heading anchors for [links](page.md#a-heading).
myst_enable_extensions = ["dollarmath", "amsmath", "colon_fence", "deflist"]
myst_heading_anchors = 4

# The notebooks are stored without outputs; the build runs them (a failing cell fails the build).
nb_execution_mode = os.environ.get("QPICROSS_DOCS_EXECUTE", "force")
nb_execution_timeout = 300
nb_execution_raise_on_error = True
nb_execution_show_tb = True

autosummary_generate = True
# Each object is documented where it is defined, not again where a package re-exports it.
autodoc_default_options = {"members": True, "show-inheritance": True, "ignore-module-all": True}
autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_mock_imports = ["numba.cuda"] if os.environ.get("QPICROSS_DOCS_MOCK_CUDA") else []
napoleon_google_docstring = True
napoleon_numpy_docstring = False

html_theme = "furo"
html_title = f"qpicross {release}"
# tables.css: results tables scroll sideways in a box of their own instead of running off the page
html_static_path = ["_static"]
html_css_files = ["tables.css"]
# Option names stay as typed: "--option" is not turned into an en dash (a reader pastes them into a shell).
smartquotes = False

suppress_warnings = ["myst.header"]
