"""The repository's own tooling, kept out of the installed package.

What only this repository needs lives here, next to ``results/``, ``figures/`` and ``docs/``:

* :mod:`benchmarks.report` -- rewrites the generated results tables of the README and the docs'
  results pages from ``results/*.json`` (``make readme``);
* :mod:`benchmarks.figures` -- the figures of the README and the docs (``make figures``).

Run them from the repository root (``python -m benchmarks.report``); the Makefile does.
"""
