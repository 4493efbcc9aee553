"""The repository's own tooling, kept out of the installed package.

What only this repository needs lives here, next to ``results/``, ``figures/`` and ``docs/``:

* :mod:`benchmarks.report` -- rewrites the generated results tables of the README and the docs'
  results pages from ``results/*.json`` (``make readme``);
* :mod:`benchmarks.figures` -- the figures of the README and the docs (``make figures``);
* :mod:`benchmarks.provenance` -- the results files the current code did not write (``make stale-results``), and
  the line under each generated table saying which code measured it;
* :mod:`benchmarks.restate` -- a results file's TTS99 recomputed on the censored estimator (``make restate``);
* :mod:`benchmarks.kernels` -- the block-shift annealer's two kernels side by side (``make bench-kernels``);
* :mod:`benchmarks.memory` -- the size guard against the memory runs really take (``make bench-memory``);
* :mod:`benchmarks.ladder` -- a ladder of puzzles (:class:`~benchmarks.ladder.Rung`), shipped, shared or generated;
* :mod:`benchmarks.study` -- generic samplers x encodings tuned and climbed up a ladder (``make study``);
* :mod:`benchmarks.schedule` -- TTS99 against sweep count, and a β range from the model's energy gap;
* :mod:`benchmarks.embedding` -- what fits on a D-Wave QPU (minor-embedding into Pegasus and Zephyr);
* :mod:`benchmarks.frontier` -- the ladders the schedule and embedding studies climb here
  (``make schedule``, ``make embedding``), and the formulation-frontier page's tables;
* :mod:`benchmarks.tables` -- small helpers the studies' results files and tables share.

Run them from the repository root (``python -m benchmarks.report``); the Makefile does.
"""
