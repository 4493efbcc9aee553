"""Experiments on top of the pipeline: benchmarks, time-to-solution statistics, tuning, scaling.

* :mod:`qpicross.experiments.tts` -- TTS99 (fixed-length and optimal-cutoff), Wilson intervals;
* :mod:`qpicross.experiments.ratios` -- how much faster one configuration is than another: geometric-mean ratios
  with puzzle (and read) bootstrap intervals;
* :mod:`qpicross.experiments.runner` -- many tasks on local processes or a Dask cluster;
* :mod:`qpicross.experiments.bench` -- success probability and TTS99 per puzzle and configuration;
* :mod:`qpicross.experiments.batch` -- the same for batched samplers, many puzzles in one call;
* :mod:`qpicross.experiments.result` -- what a results file holds: its rows, safe CSV cells, and the ``meta``
  that says on which machine and by which code (version and sampler code hash) it was written;
* :mod:`qpicross.experiments.tune` -- penalty-weight sweeps (drawn by :func:`qpicross.plot.plot_tuning`), over the
  points of :mod:`qpicross.experiments.weight_points`;
* :mod:`qpicross.experiments.generate` -- random puzzles;
* :mod:`qpicross.experiments.scaling` -- success probability and TTS99 against puzzle size, plotted.

The repository's own tooling -- its ladders of puzzles and the studies that climb them (formulation study,
schedule, QPU embedding), the kernels comparison, restating results files, the stale-results check,
results pages and figures -- is in its ``benchmarks/`` folder, not in the package.

Imported on demand (``from qpicross.experiments.bench import run_bench``): nothing here loads with
``import qpicross``.
"""
