"""Experiments on top of the pipeline: benchmarks, time-to-solution statistics, tuning, scaling.

* :mod:`qpicross.experiments.tts` -- TTS99 (fixed-length and optimal-cutoff), Wilson intervals;
* :mod:`qpicross.experiments.bench` -- success probability and TTS99 per puzzle and configuration;
* :mod:`qpicross.experiments.batch` -- the same for batched samplers, many puzzles in one call;
* :mod:`qpicross.experiments.result` -- what a results file holds: its rows, safe CSV cells, and the ``meta``
  that says on which machine, with which versions, it was written;
* :mod:`qpicross.experiments.tune` -- penalty-weight sweeps (drawn by :func:`~qpicross.experiments.tune.plot_tuning`), over the
  points of :mod:`qpicross.experiments.weight_points`;
* :mod:`qpicross.experiments.scaling` -- success probability and TTS99 against puzzle size, plotted.

Random puzzles are made by :mod:`qpicross.classical.generate`, and many tasks run on local processes or a Dask
cluster by :mod:`qpicross.samplers.workers`. The repository's own tooling -- its ladders of puzzles and the studies that climb them (formulation study,
schedule, QPU embedding), the kernels comparison, restating results files, the stale-results check,
results pages and figures -- is in its ``benchmarks/`` folder, not in the package.

Imported on demand (``from qpicross.experiments.bench import run_bench``): nothing here loads with
``import qpicross``.
"""
