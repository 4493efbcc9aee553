"""Experiments on top of the pipeline: benchmarks, time-to-solution statistics, tuning, studies.

* :mod:`qpicross.experiments.tts` -- TTS99 (fixed-length and optimal-cutoff), Wilson intervals;
* :mod:`qpicross.experiments.runner` -- many tasks on local processes or a Dask cluster;
* :mod:`qpicross.experiments.bench` -- success probability and TTS99 per puzzle and configuration;
* :mod:`qpicross.experiments.tune` -- penalty-weight sweeps;
* :mod:`qpicross.experiments.generate` -- random puzzles;
* :mod:`qpicross.experiments.scaling` -- success probability and TTS99 against puzzle size, plotted;
* :mod:`qpicross.experiments.provenance` -- which code wrote a results file;
* :mod:`qpicross.experiments.restate` -- a results file's TTS99 recomputed on the censored estimator;
* :mod:`qpicross.experiments.study` -- generic samplers x encodings tuned and climbed up a ladder of puzzles;
* :mod:`qpicross.experiments.schedule` -- TTS99 against sweep count, and a β range from the model's energy gap;
* :mod:`qpicross.experiments.embedding` -- what fits on a D-Wave QPU (minor-embedding into Pegasus and Zephyr);
* :mod:`qpicross.experiments.kernels` -- the block-shift annealer's two kernels side by side.

The repository's own ladders of puzzles, results pages and figures are in its ``benchmarks/`` folder.

Imported on demand (``from qpicross.experiments.bench import run_bench``): nothing here loads with
``import qpicross``.
"""
